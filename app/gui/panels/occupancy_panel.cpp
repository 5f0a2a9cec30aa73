#include "panels.hpp"
namespace ts::app {
void drawOccupancyPanel(Frame&, float) {}
}  // namespace ts::app
