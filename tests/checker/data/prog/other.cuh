#define FROM_OTHER 1
