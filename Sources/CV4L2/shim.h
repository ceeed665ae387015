// libv4l2: V4L2 capture with format conversion (MJPEG and unusual formats).
// VIDIOC_* requests and v4l2_fourcc() are function-like macros, and v4l2_ioctl is
// variadic; both are given fixed, importable names here and nowhere else.
#include <stdint.h>
#include <linux/videodev2.h>
#include <libv4l2.h>

static inline int rig_v4l2_ioctl(int fd, unsigned long request, void *arg) {
    return v4l2_ioctl(fd, request, arg);
}

// v4l2_open is variadic (an optional mode) like open(2); capture never creates files.
static inline int rig_v4l2_open(const char *path, int flags) {
    return v4l2_open(path, flags);
}

static inline unsigned long rig_vidioc_querycap(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long rig_vidioc_enum_fmt(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long rig_vidioc_enum_framesizes(void) { return VIDIOC_ENUM_FRAMESIZES; }
static inline unsigned long rig_vidioc_enum_frameintervals(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
static inline unsigned long rig_vidioc_g_fmt(void) { return VIDIOC_G_FMT; }
static inline unsigned long rig_vidioc_s_fmt(void) { return VIDIOC_S_FMT; }
static inline unsigned long rig_vidioc_s_parm(void) { return VIDIOC_S_PARM; }
static inline unsigned long rig_vidioc_g_parm(void) { return VIDIOC_G_PARM; }
static inline unsigned long rig_vidioc_reqbufs(void) { return VIDIOC_REQBUFS; }
static inline unsigned long rig_vidioc_querybuf(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long rig_vidioc_qbuf(void) { return VIDIOC_QBUF; }
static inline unsigned long rig_vidioc_dqbuf(void) { return VIDIOC_DQBUF; }
static inline unsigned long rig_vidioc_streamon(void) { return VIDIOC_STREAMON; }
static inline unsigned long rig_vidioc_streamoff(void) { return VIDIOC_STREAMOFF; }

static const uint32_t RIG_V4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
static const uint32_t RIG_V4L2_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
static const uint32_t RIG_V4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;
static const uint32_t RIG_V4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
static const uint32_t RIG_V4L2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;
