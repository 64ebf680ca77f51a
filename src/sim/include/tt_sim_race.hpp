// tt_sim_race.hpp — the shared-memory race check on the kernel side: the
// shims' inline checks of a checked __shared__ element's reads and writes
// and their out-of-line call (tt_sim_shared.c has the rules; both give the
// same answers).  Included by tt_sim_common.hpp inside namespace tt_sim,
// after TT_SIM_AI; not a public header.

// The race check's common cases, inline (the runtime's tt_sim_shared.c
// explains the stamps and decides the rest, with the same answers): a read
// that its word's summary already holds (own stamp, GROUP of this warp's
// interval, SAT); a read that joins the summary (first reader, GROUP, an
// earlier interval of its warp, SAT) when the word was last written in an
// earlier barrier interval or by this thread; a write that meets no access
// but this thread's own in its interval.  Whatever is recorded keeps its code address, for the report of a later
// conflict (TT_SIM_HERE: the address of the access itself, as the runtime's
// return address of an out-of-line call names its call).  Elsewhere (other
// sizes, other CPUs) every access is an out-of-line call.
#if defined(__x86_64__)
#define TT_SIM_HERE() ({ void *ip_; __asm__ volatile("lea 0(%%rip), %0" : "=r"(ip_)); ip_; })
#elif defined(__aarch64__)
#define TT_SIM_HERE() ({ void *ip_; __asm__ volatile("adr %0, ." : "=r"(ip_)); ip_; })
#endif
template <class E> constexpr bool race_inline()
{
#ifdef TT_SIM_HERE
    return sizeof(E) == 4;
#else
    return false;
#endif
}

// Kernel code reaches the shadow (tt_sim_rword) and its access addresses
// (race_ip) only through volatile accesses of types of their own.  Why: a
// shared access's check needs the thread's stamp, the interval's base and
// the shadow's base, a chain of loads from the block and thread records;
// the compiler keeps them in registers across a loop of shared accesses
// only if nothing in the loop may write those records.  So
// - the out-of-line call (race_slow) declares no memory output: it writes
//   only the shadow entry and access addresses of this word (or fails the
//   launch and never returns), and GCC's loop-invariant motion gives up on a
//   loop that holds an asm with one;
// - as the compiler does not know that call writes the entry, every load of
//   the shadow is volatile (read again after each call, never merged with an
//   earlier one) and so is every store (never dropped or moved across the
//   call, which reads them; the call also takes the entry as an input);
// - the stamps and addresses are enum classes, which have alias sets of
//   their own (type-based aliasing, -O2), so that the inline stores cannot
//   alias the records either.  (The runtime, another translation unit,
//   writes the same memory as uint64_t.)
enum class race_stamp : uint64_t {};
enum class race_addr : uintptr_t {};
struct race_word {
    race_stamp w, r;
};
static_assert(sizeof(race_word) == sizeof(tt_sim_rword) && sizeof(race_addr) == sizeof(uintptr_t),
              "race_word is the layout of tt_sim_rword");
// A shadow entry and its two access addresses are 16 bytes per 4 bytes of
// the arena: both are at byte 4 * (p - shared) of their arrays.
static_assert(sizeof(race_word) == 4 * 4 && 2 * sizeof(race_addr) == 4 * 4,
              "16 bytes of shadow and of addresses per word");

// The out-of-line check of the word at p (shadow entry e, its access
// addresses ipp[0..1]), from kernel code.  x86-64 without AVX: through
// tt_sim_race_call, which keeps every register, and with only the entry, the
// word and the stored value as the asm's memory, all inputs (above: why no
// outputs); below the red zone, x87 registers clobbered.  (Whatever else the
// runtime writes there, kernel code never reads.)
template <class E>
TT_SIM_AI inline void race_slow(const E *p, int is_write, const E *v, const tt_sim_site *s,
                                race_word *e, race_addr *ipp)
{
#if defined(__x86_64__) && !defined(__AVX__) && !defined(TT_SIM_NO_RACE_CALL)
    register const void *rdi __asm__("rdi") = (const void *)p;
    register size_t rsi __asm__("rsi") = sizeof(E);
    register long rdx __asm__("rdx") = is_write;
    register const void *rcx __asm__("rcx") = (const void *)v;
    register const tt_sim_site *r8 __asm__("r8") = s;
    __asm__ volatile("lea -128(%%rsp), %%rsp\n\tcall tt_sim_race_call\n\tlea 128(%%rsp), %%rsp"
                     :
                     : "r"(rdi), "r"(rsi), "r"(rdx), "r"(rcx), "r"(r8), "m"(*e), "m"(ipp[0]),
                       "m"(ipp[1]), "m"(*p), "m"(*(v ? v : p))
                     : "cc", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)");
#else
    // an ordinary call: the compiler assumes it writes any memory
    (void)e;
    (void)ipp;
    if (v)
        tt_sim_shared_store((const void *)p, sizeof(E), (const void *)v, s);
    else
        tt_sim_shared_access((const void *)p, sizeof(E), is_write, s);
#endif
}

TT_SIM_AI inline uint64_t race_ld(const race_stamp *q)
{
    return uint64_t(*const_cast<const volatile race_stamp *>(q));
}
TT_SIM_AI inline void race_st(race_stamp *q, uint64_t v)
{
    *const_cast<volatile race_stamp *>(q) = race_stamp(v);
}
TT_SIM_AI inline void race_st_ip(race_addr *q, void *ip)
{
    *const_cast<volatile race_addr *>(q) = race_addr(uintptr_t(ip));
}

// What the check of an access needs of the block and the running thread,
// all loaded unconditionally (so that a loop can load them once): whether
// the check is on (for writes: a read needs no test, as a launch without the
// check gives its blocks the runtime's pass table, whose every read summary
// is the SAT of their base 0), where the shadow entry and access addresses of the word
// at p are (at 4 * p plus dsh, dip: 16 bytes per 4 bytes of the arena), the
// thread's stamp and the interval's base.
struct race_ctx {
    bool on;
    uintptr_t dsh, dip;
    uint64_t m, base;
    TT_SIM_AI race_word *entry(const void *p) const
    {
        return reinterpret_cast<race_word *>(dsh + 4 * uintptr_t(p)); // (p is 4-byte aligned)
    }
    TT_SIM_AI race_addr *ips(const race_word *e) const
    {
        return reinterpret_cast<race_addr *>(uintptr_t(e) + (dip - dsh));
    }
};
TT_SIM_AI inline race_ctx race_here()
{
    tt_sim_block *b = tt_sim_blk;
    const tt_sim_thread *t = tt_sim_cur;
    race_ctx c;
    c.on = b->race_ip != nullptr;
    c.dsh = uintptr_t(b->race_shadow) - 4 * uintptr_t(b->shared);
    c.dip = uintptr_t(b->race_ip) - 4 * uintptr_t(b->shared);
    c.m = (b->race_ival[t->warp_id] << 16) | (t->linear + 1);
    c.base = b->race_base;
    return c;
}

// A read that the summary r of its word (shadow entry e) does not hold yet:
// when the last write is ordered before it, it joins the summary
// (tt_sim_shared.c, reads_add), else the runtime decides.
template <class E>
TT_SIM_AI inline void race_read_join(const E *p, const tt_sim_site *s, const race_ctx &c, race_word *e,
                                     uint64_t r)
{
    const uint64_t m = c.m, base = c.base;
    uint64_t w = race_ld(&e->w);
    race_addr *ipp = c.ips(e);
    if (__builtin_expect(w < base || w == m, 1)) {
        if (r < base) { // none yet: the first
            race_st(&e->r, m);
            race_st_ip(ipp + 1, TT_SIM_HERE());
            return;
        }
        uint64_t ivr = r >> 16, ivm = m >> 16;
        if (ivr == ivm) { // another lane of this warp's interval
            race_st(&e->r, (m & ~uint64_t(0xFFFF)) | TT_SIM_RACE_GROUP);
            return;
        }
        if (((ivr ^ ivm) & ((1u << TT_SIM_RACE_WARP_BITS) - 1)) == 0) {
            // only reads of an earlier interval of this warp, ordered before it
            race_st(&e->r, m);
            race_st_ip(ipp + 1, TT_SIM_HERE());
            return;
        }
        race_st(&e->r, base | TT_SIM_RACE_SAT); // another warp's
        return;
    }
    race_slow(p, 0, static_cast<const E *>(nullptr), s, e, ipp);
}

template <class E> TT_SIM_AI inline void race_read(const E *p, const tt_sim_site *s)
{
    if constexpr (race_inline<E>()) {
        race_ctx c = race_here();
        race_word *e = c.entry(p);
        const uint64_t m = c.m, base = c.base;
        const uint64_t group = (m & ~uint64_t(0xFFFF)) | TT_SIM_RACE_GROUP;
        const uint64_t sat = base | TT_SIM_RACE_SAT;
        // Reads that the summary already holds change nothing, and need no
        // look at the last write: a summary that holds this thread's stamp,
        // its warp interval's GROUP or SAT was made by reads that each found
        // the last write ordered before them (or the launch failed there),
        // and the write is still the last one (a write resets the summary).
        // A write ordered before all of them is ordered before this read: by
        // its thread's earlier read in this interval (own stamp), or because
        // it is of an earlier barrier interval, or of an earlier interval of
        // this warp (GROUP: a write in this interval of this warp by any lane
        // but the reader races with the GROUP's other reader; SAT: a write in
        // this interval races with one of the warps).
        uint64_t r = race_ld(&e->r);
        // one test and branch each, the common ones first (the empty asm
        // keeps GCC from merging the tests into setcc/or chains)
        if (r == sat)
            return;
        __asm__("" : "+r"(r));
        if (r == group)
            return;
        __asm__("" : "+r"(r));
        if (r == m)
            return;
        race_read_join(p, s, c, e, r);
        return;
    }
    tt_sim_shared_access((const void *)p, sizeof(E), 0, s);
}

template <class E> TT_SIM_AI inline void race_write(const E *p, const E *v, const tt_sim_site *s)
{
    if constexpr (race_inline<E>()) {
        race_ctx c = race_here();
        if (!c.on)
            return;
        race_word *e = c.entry(p);
        race_addr *ipp = c.ips(e);
        const uint64_t m = c.m, base = c.base;
        uint64_t w = race_ld(&e->w), r = race_ld(&e->r);
        if (__builtin_expect((w < base || w == m) && (r < base || r == m), 1)) {
            race_st(&e->w, m);
            race_st(&e->r, 0);
            race_st_ip(ipp, TT_SIM_HERE());
            return;
        }
        race_slow(p, 1, v, s, e, ipp);
        return;
    }
    if (v)
        tt_sim_shared_store((const void *)p, sizeof(E), v, s);
    else
        tt_sim_shared_access((const void *)p, sizeof(E), 1, s);
}
