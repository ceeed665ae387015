// libmicrohttpd (Debian's 0.9.75). MHD_start_daemon is variadic and does not import
// into Swift: this names the one call the kiosk makes, with its options as an array.
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

typedef enum MHD_Result (*rig_mhd_access_handler)(void *cls, struct MHD_Connection *connection, const char *url,
                                                 const char *method, const char *version, const char *upload_data,
                                                 size_t *upload_data_size, void **req_cls);
typedef void (*rig_mhd_completed_handler)(void *cls, struct MHD_Connection *connection, void **req_cls,
                                          enum MHD_RequestTerminationCode toe);
typedef enum MHD_Result (*rig_mhd_accept_policy)(void *cls, const struct sockaddr *addr, socklen_t addrlen);

/// A daemon driven by the caller's event loop (MHD_USE_EPOLL, no thread of its own) on
/// a listening socket the caller made, with the limits given. No MHD_USE_ERROR_LOG:
/// every client that leaves mid-stream would be a line in the journal.
static inline struct MHD_Daemon *rig_mhd_start(int listen_fd, unsigned int timeout_seconds,
                                               unsigned int connection_limit, unsigned int per_ip_limit,
                                               size_t memory_limit, rig_mhd_accept_policy accept,
                                               rig_mhd_access_handler handler, rig_mhd_completed_handler completed,
                                               void *cls) {
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_LISTEN_SOCKET, listen_fd, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, NULL},
        {MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL},
        {MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)memory_limit, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, cls},
        {MHD_OPTION_END, 0, NULL},
    };
    return MHD_start_daemon(MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, 0, accept, cls,
                            handler, cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The daemon's epoll descriptor, which the event loop polls.
static inline int rig_mhd_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info ? info->epoll_fd : -1;
}

/// The peer's address of a connection (NULL when unknown).
static inline const struct sockaddr *rig_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

/// A connection's own idle timeout (0: none, for an event stream that waits for news).
static inline void rig_mhd_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

static const ssize_t rig_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const uint64_t rig_mhd_size_unknown = MHD_SIZE_UNKNOWN;

// The enums are closed C enums; these names keep the Swift side independent of how
// the importer strips their prefixes.
static const enum MHD_Result rig_mhd_yes = MHD_YES;
static const enum MHD_Result rig_mhd_no = MHD_NO;
static const enum MHD_ValueKind rig_mhd_header_kind = MHD_HEADER_KIND;
static const enum MHD_ValueKind rig_mhd_cookie_kind = MHD_COOKIE_KIND;
static const enum MHD_ValueKind rig_mhd_query_kind = MHD_GET_ARGUMENT_KIND;
static const enum MHD_ResponseMemoryMode rig_mhd_must_copy = MHD_RESPMEM_MUST_COPY;
