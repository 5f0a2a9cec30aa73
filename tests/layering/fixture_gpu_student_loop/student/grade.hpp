// Fixture for the layering test: the grader may use the GPU layer (student/ ranks above gpu/).
#pragma once
#include "gpu/student_launch.hpp"
