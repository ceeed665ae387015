// libdrm: KMS resources, dumb buffers, page flips and atomic commits.
// fourcc_code() is a function-like macro that Swift cannot import, so the formats
// the kiosk uses are named here and nowhere else.
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

static const uint32_t RIG_DRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
