# slides: GUI tests (included from tests/gui/CMakeLists.txt, label gui).
