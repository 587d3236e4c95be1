#include "CSDBus.h"
int csdbus_placeholder(void) { return 0; }
