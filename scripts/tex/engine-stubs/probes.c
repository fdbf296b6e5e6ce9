/* The two names configure links to accept "system" ICU and graphite2 (see
 * include/unicode/ustring.h).  HarfBuzz is compiled without either, so
 * neither is ever called by the engine. */
#include <stdint.h>
typedef uint16_t UChar;
typedef int UErrorCode;
int32_t u_strToLower(UChar *d, int32_t c, const UChar *s, int32_t n, const char *l, UErrorCode *e) {
  (void)d; (void)c; (void)s; (void)n; (void)l; if (e) *e = 1; return 0;
}
void gr_engine_version(int *major, int *minor, int *bugfix) {
  if (major) *major = 1; if (minor) *minor = 3; if (bugfix) *bugfix = 14;
}
