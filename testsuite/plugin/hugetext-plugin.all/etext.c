/* Refers to etext, _etext and __etext, which ld's default script defines
   with PROVIDE, so only where they are referred to: the tests read their
   values (the contract's rule side-effects).  */
extern char etext[], _etext[], __etext[];

__attribute__ ((used)) char *const ht_etext[] = { etext, _etext, __etext };
