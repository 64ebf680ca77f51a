#pragma once
#define EXTRA 0.0f
