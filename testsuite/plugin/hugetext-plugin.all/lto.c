/* About 2.4 MiB of code made by the compiler at link time under LTO: 600
   functions, each jumping over 4000 bytes of padding.  */
#define F(n) __attribute__ ((noinline)) int f##n (int x) \
  { __asm__ volatile ("jmp 1f\n.skip 4000, 0xcc\n1:"); return x + n; }
#define F10(n) F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) \
  F(n##5) F(n##6) F(n##7) F(n##8) F(n##9)
#define F100(n) F10(n##0) F10(n##1) F10(n##2) F10(n##3) F10(n##4) \
  F10(n##5) F10(n##6) F10(n##7) F10(n##8) F10(n##9)
F100 (1) F100 (2) F100 (3) F100 (4) F100 (5) F100 (6)
#undef F
#define F(n) s += f##n (i);
int bigfn (void)
{
  int s = 0, i = 0;
  F100 (1) F100 (2) F100 (3) F100 (4) F100 (5) F100 (6)
  return s == 1 ? 1 : 0;
}
