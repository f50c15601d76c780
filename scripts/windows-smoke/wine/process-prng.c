/* Wine 8.0 ships no bcryptprimitives.dll, and Go 1.22+ programs (esbuild.exe) and Bun call its
   ProcessPrng while starting. This stand-in fills the buffer from advapi32's RtlGenRandom
   (exported as SystemFunction036). Built with mingw-w64 as bcryptprimitives.dll; Wine only. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE out, SIZE_T length) {
  const SIZE_T chunk = 1u << 24;
  for (SIZE_T done = 0; done < length; done += chunk) {
    ULONG part = (ULONG)(length - done < chunk ? length - done : chunk);
    if (!SystemFunction036(out + done, part)) return FALSE;
  }
  return TRUE;
}
