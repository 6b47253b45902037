package parser

/*
#if defined(__GLIBC__)
#include <malloc.h>
static void wt_trim(void) { malloc_trim(0); }
#else
static void wt_trim(void) {}
#endif
*/
import "C"

// ReleaseMemory returns the C heap that parsing freed (tree-sitter's trees
// and parsers) to the operating system, where the C library allows it
// (glibc keeps a thread's freed arena otherwise: moby's full build held
// about 20 MB of it after parsing). Call it when a batch of files is
// parsed and their trees closed.
func ReleaseMemory() { C.wt_trim() }
