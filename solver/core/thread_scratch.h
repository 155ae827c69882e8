// Scratch storage kept per thread, for functions that may run on several threads at once (contact detection, the
// Jacobian's pair differences) and would otherwise allocate at every call.
#pragma once

namespace lodestone {

// The calling thread's own `T`, one per `Tag` (a type named after the function and the use, so that no two uses
// share one), default-constructed on the thread's first call. Bind the result to a reference once per call of the
// function that uses it. In a shared library every use of a `thread_local` is a look-up (a call to
// __tls_get_addr), and GCC repeats the look-up at each use, inside loops too, even through a reference bound to the
// variable: 5 % of a mesh-contact run's instructions. A reference returned by a call it does not inline is kept.
// (GCC's TLS descriptors, -mtls-dialect=gnu2, make the look-up cheap, but Debian 12's glibc clobbers vector
// registers on their slow path after a dlopen: a run with a law library failed to start.)
template <class T, class Tag>
[[gnu::noinline]] T& threadScratch() {
  thread_local T value;
  return value;
}

}  // namespace lodestone
