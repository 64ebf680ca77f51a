/* tt_sim_race_x86_64.S — the race check's out-of-line path, callable from
 * kernel code as if it changed no register (tt_sim_common.hpp, race_slow).
 *
 * Why: every caller-saved register, the SSE ones included, dies at an
 * ordinary call, so a call that a shared access might make (rarely: on a
 * possible conflict) makes the compiler keep the kernel's loop values,
 * float accumulators above all, in memory for the whole loop.  Called from
 * inline asm instead, the call is invisible to register allocation.
 *
 * tt_sim_race_call: in rdi = address, rsi = size, rdx = is_write, rcx = the
 * stored value (or 0), r8 = the site; the caller has stepped below its red
 * zone.  Saves the caller-saved general registers and xmm0-15 (the kernel
 * is built without AVX where this is used), aligns the stack and calls
 * tt_sim_race_slow(addr, size, is_write, val, site, ip) with ip = its own
 * return address, the access's place in the kernel.  x87 registers are
 * declared clobbered by the asm that calls it.
 */
    .text
    .globl  tt_sim_race_call
    .type   tt_sim_race_call, @function
tt_sim_race_call:
    .cfi_startproc
    pushq   %rbp
    .cfi_def_cfa_offset 16
    .cfi_offset %rbp, -16
    movq    %rsp, %rbp
    .cfi_def_cfa_register %rbp
    pushq   %rax
    pushq   %rcx
    pushq   %rdx
    pushq   %rsi
    pushq   %rdi
    pushq   %r8
    pushq   %r9
    pushq   %r10
    pushq   %r11
    subq    $256, %rsp
    andq    $-16, %rsp
    movdqa  %xmm0, 0(%rsp)
    movdqa  %xmm1, 16(%rsp)
    movdqa  %xmm2, 32(%rsp)
    movdqa  %xmm3, 48(%rsp)
    movdqa  %xmm4, 64(%rsp)
    movdqa  %xmm5, 80(%rsp)
    movdqa  %xmm6, 96(%rsp)
    movdqa  %xmm7, 112(%rsp)
    movdqa  %xmm8, 128(%rsp)
    movdqa  %xmm9, 144(%rsp)
    movdqa  %xmm10, 160(%rsp)
    movdqa  %xmm11, 176(%rsp)
    movdqa  %xmm12, 192(%rsp)
    movdqa  %xmm13, 208(%rsp)
    movdqa  %xmm14, 224(%rsp)
    movdqa  %xmm15, 240(%rsp)
    movq    8(%rbp), %r9
    call    tt_sim_race_slow@PLT
    movdqa  0(%rsp), %xmm0
    movdqa  16(%rsp), %xmm1
    movdqa  32(%rsp), %xmm2
    movdqa  48(%rsp), %xmm3
    movdqa  64(%rsp), %xmm4
    movdqa  80(%rsp), %xmm5
    movdqa  96(%rsp), %xmm6
    movdqa  112(%rsp), %xmm7
    movdqa  128(%rsp), %xmm8
    movdqa  144(%rsp), %xmm9
    movdqa  160(%rsp), %xmm10
    movdqa  176(%rsp), %xmm11
    movdqa  192(%rsp), %xmm12
    movdqa  208(%rsp), %xmm13
    movdqa  224(%rsp), %xmm14
    movdqa  240(%rsp), %xmm15
    leaq    -72(%rbp), %rsp
    popq    %r11
    popq    %r10
    popq    %r9
    popq    %r8
    popq    %rdi
    popq    %rsi
    popq    %rdx
    popq    %rcx
    popq    %rax
    popq    %rbp
    .cfi_def_cfa %rsp, 8
    ret
    .cfi_endproc
    .size   tt_sim_race_call, .-tt_sim_race_call
    .section .note.GNU-stack,"",@progbits
