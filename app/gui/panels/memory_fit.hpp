// How tall the parts of the Memory panel's picture are (memory_panel.cpp): the lane row, the
// gap the connectors cross, and the rows below it (bank cells, one row per wavefront, or rows
// of 128-byte segments), so that the picture fills the height the panel gives it. Pure
// arithmetic in pixels, no ImGui, so that a unit test can hold it to the room
// (tests/app/figure_fit_test.cpp).
#pragma once

namespace ts::app {

/// What the picture holds, in pixels at the current scale.
struct WarpPictureInput {
    float width = 0;        ///< the picture's width
    float font = 0;         ///< the small font's size (lane numbers, bank numbers, lanes served)
    float unit = 1;         ///< one pixel of the 1x layout (scaled(1))
    int rows = 1;           ///< wavefronts (shared) or rows of segments (global)
    bool global = false;    ///< rows of segments: each has two label rows under its sectors
    bool connectors = true; ///< lines run from the lanes to their words (false: a short gap)
};

/// The picture's least and wanted height (what the panel asks the layout for).
struct WarpPictureSize {
    float min = 0, want = 0;
};

/// The heights of the picture's parts; lanes + gap + rows x (cell + perRow) + bottom is the
/// picture's height.
struct WarpPictureParts {
    float lanes = 0;        ///< the lane row
    float gap = 0;          ///< between the lanes and the first row (the connectors)
    float cell = 0;         ///< a bank cell, or a segment's sectors
    float perRow = 0;       ///< under each row: the lanes served and the segment's name (global)
    float bottom = 0;       ///< under the last row: the bank numbers (shared)
};

/// The least and wanted height of a picture for `in`. Throws std::invalid_argument, with a
/// sentence naming the value, when a size is negative or not a number or rows is below 1.
WarpPictureSize warpPictureSize(const WarpPictureInput& in);

/// The parts of a picture `height` pixels tall: from the least to the wanted height the lane
/// row (one to two lines of the small font), the gap (up to half the width) and the cells (up
/// to three lines) grow together, in proportion; below the least the parts keep their least
/// (the picture is taller than `height`); above the wanted height the lane row keeps its
/// most and the rest is shared, half to the gap (all of it to the cells where there are no
/// connectors) and half to the cells, evenly over the rows, so that the parts add up to
/// `height`. Throws as warpPictureSize does.
WarpPictureParts splitWarpPicture(const WarpPictureInput& in, float height);

}  // namespace ts::app
