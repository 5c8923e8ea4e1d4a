/*
 * Debian's libgit2 is built with GSSAPI ("negotiate") authentication for HTTP remotes, and there is no
 * static Kerberos library to link it with. prepush never talks to a remote through libgit2: it reads
 * the local repository only (pushes are git's own). So the static binary gets these stand-ins, which
 * fail every call as GSSAPI does when no mechanism is available; libgit2 then never offers
 * negotiate authentication. Linked only by scripts/build-static.sh.
 */
#include <stddef.h>
#include <stdint.h>

typedef uint32_t OM_uint32;
#define GSS_S_FAILURE (13ul << 16)
#define GSS_S_UNAVAILABLE (16ul << 16)

typedef struct { size_t length; void *elements; } gss_OID_desc;
static gss_OID_desc no_oid = { 0, NULL };
void *GSS_C_NT_HOSTBASED_SERVICE = &no_oid;

static OM_uint32 unavailable(OM_uint32 *minor) {
    if (minor) *minor = 0;
    return GSS_S_UNAVAILABLE;
}

OM_uint32 gss_display_status(OM_uint32 *minor, OM_uint32 s, int t, void *m, OM_uint32 *c, void *b) { return unavailable(minor); }
OM_uint32 gss_release_buffer(OM_uint32 *minor, void *buffer) { if (minor) *minor = 0; return 0; }
OM_uint32 gss_delete_sec_context(OM_uint32 *minor, void *context, void *token) { if (minor) *minor = 0; return 0; }
OM_uint32 gss_import_name(OM_uint32 *minor, void *in, void *type, void *out) { return unavailable(minor); }
OM_uint32 gss_release_name(OM_uint32 *minor, void *name) { if (minor) *minor = 0; return 0; }
OM_uint32 gss_init_sec_context(OM_uint32 *minor, void *a, void *b, void *c, void *d, OM_uint32 e, OM_uint32 f, void *g,
                               void *h, void *i, void *j, OM_uint32 *k, OM_uint32 *l) { return unavailable(minor); }
OM_uint32 gss_indicate_mechs(OM_uint32 *minor, void **mechs) { if (mechs) *mechs = NULL; return unavailable(minor); }
OM_uint32 gss_release_oid_set(OM_uint32 *minor, void **set) { if (minor) *minor = 0; return 0; }
