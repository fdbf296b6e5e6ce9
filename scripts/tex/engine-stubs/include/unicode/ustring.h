/* LuaHBTeX's HarfBuzz is built without ICU (its own Unicode tables serve),
 * but TeX Live's configure insists on linking u_strToLower when HarfBuzz
 * comes from outside its tree: this is the one name it probes. */
#ifndef RST2_USTRING_STUB_H
#define RST2_USTRING_STUB_H
#include <stddef.h>
#include <stdint.h>
typedef uint16_t UChar;
typedef int UErrorCode;
#ifdef __cplusplus
extern "C" {
#endif
int32_t u_strToLower(UChar *dest, int32_t destCapacity, const UChar *src, int32_t srcLength,
                     const char *locale, UErrorCode *pErrorCode);
#ifdef __cplusplus
}
#endif
#endif
