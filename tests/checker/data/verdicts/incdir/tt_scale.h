// Only in incdir/: found through the spec's `includes:`, by the sim's build and by the
// real compilers alike.
#define TT_SCALE 2.0f
