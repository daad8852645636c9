#include "gui/client/timeline.hpp"
