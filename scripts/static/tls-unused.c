/*
 * prepush reads the local repository only; pushes and fetches are git's own. Yet Debian's libgit2,
 * built with mbedTLS, parses the whole CA bundle (/etc/ssl/certs/ca-certificates.crt) in
 * git_libgit2_init: about 10 ms of CPU and a fifth of every hook run (docs/benchmarks.md).
 *
 * scripts/build-static.sh links a copy of Debian's libgit2.a (with its security fixes) in which
 * libgit2's start-up calls prepush_tls_not_initialized instead of git_mbedtls_stream_global_init,
 * and its TLS stream constructors call the refusals below instead of mbedTLS's: the binary has no
 * TLS, like a libgit2 built with -DUSE_HTTPS=OFF, and an https remote is an error, never a crash.
 * Linked only by scripts/build-static.sh.
 */
#include <git2/errors.h>

typedef struct git_stream git_stream;

int prepush_tls_not_initialized(void) {
    return 0;
}

/*
 * libgit2's start-up also calls libssh2_init(0), which starts OpenSSL's algorithms: 18 of the 186
 * 64 KiB pieces of code a hook run maps (docs/benchmarks.md), for an ssh transport prepush never
 * uses. libssh2 starts itself when a session is made (libssh2_session_init_ex calls
 * _libssh2_init_if_needed), so the transport still works if it is ever used; nothing is refused.
 */
int prepush_ssh_initialized_lazily(void) {
    return 0;
}

static int refused(void) {
    git_error_set_str(GIT_ERROR_SSL, "this libgit2 has no TLS: prepush reads the local repository only");
    return -1;
}

int prepush_tls_stream_new(git_stream **out, const char *host, const char *port) {
    (void)host; (void)port;
    if (out) *out = 0;
    return refused();
}

int prepush_tls_stream_wrap(git_stream **out, git_stream *in, const char *host) {
    (void)in; (void)host;
    if (out) *out = 0;
    return refused();
}
