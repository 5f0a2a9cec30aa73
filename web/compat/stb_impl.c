// The web build's copy of the stb functions the desktop app takes from Debian's libstb:
// PNG writing (screenshots, exports) and TrueType metrics (the SVG export's text widths).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb_truetype.h>
