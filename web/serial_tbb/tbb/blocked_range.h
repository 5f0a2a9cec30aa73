// The web build's serial stand-in for oneTBB (serial.h).
#pragma once
#include "serial.h"
