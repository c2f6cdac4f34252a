/*
 * The monotonic clock every MCP deadline is measured on (transport.h): a
 * phase made of several reads compares against one absolute deadline, so
 * wall-clock jumps never stretch or cut a budget.
 */
#include <time.h>

#include "mcp/transport.h"

uint64_t mv_mcp_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}
