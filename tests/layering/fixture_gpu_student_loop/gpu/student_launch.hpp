// Fixture for the layering test: gpu/ and student/ including each other. The GPU launch of a
// student's file needs the translation (frontend/, below both), never the grader; the test
// that runs check_layers.cmake on this folder must fail on this file's include of student/.
#pragma once
#include "frontend/translate.hpp"
#include "student/grade.hpp"
