#ifndef RELAUNCH_CSDBUS_H
#define RELAUNCH_CSDBUS_H
// Placeholder: the sd-bus vtables and variadic wrappers land here.
int csdbus_placeholder(void);
#endif
