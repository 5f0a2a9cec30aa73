# A run's mistake on screen: GUI tests (included from tests/gui/CMakeLists.txt, label gui).
