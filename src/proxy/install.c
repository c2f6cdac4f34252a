/* placeholder, replaced below */
#include "mcpvet/proxy.h"
int mv_proxy_install(const mv_proxy_install_options *opts, size_t *n_changed, mv_error *err) {
    (void)opts; (void)n_changed;
    return mv_error_set(err, MV_EUNSUPPORTED, "not yet");
}
