#include "zzip.h"
