package quietsys

// The numbers of preadv2 and pwritev2, which package syscall does not name.
const sysPreadv2, sysPwritev2 = 327, 328
