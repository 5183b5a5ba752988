//===- CheckBoundsTest.cpp - Accesses checked against their tensors -------===//

#include "TransformTestUtils.h"

#include <doctest/doctest.h>

using namespace tritium::test;

namespace {
/// How many accesses check-bounds checked (one report CAS each).
size_t checks(const std::string &Out) {
  size_t N = 0;
  for (size_t At = Out.find("atomic_cas %bounds.report"); At != std::string::npos;
       At = Out.find("atomic_cas %bounds.report", At + 1))
    ++N;
  return N;
}
} // namespace

TEST_CASE("check-bounds: a pointer's root through phis and selects") {
  // A loop-carried pointer of one parameter is checked; a select between two
  // parameters has no one tensor to check against.
  std::string Out = runPipeline(R"(kernel @k(%a: ptr<f32>, %b: ptr<f32>, %c: i1, %n: i32) {
entry:
  %zero = constant 0 : i32
  %one = constant 1 : i32
  br loop
loop:
  %i = phi [%zero, entry], [%i.next, loop] : i32
  %p = phi [%a, entry], [%p.next, loop] : ptr<f32>
  %v = load %p : f32
  %s = select %c, %a, %b : ptr<f32>
  store %s, %v
  %p.next = getelementptr %p, %one : ptr<f32>
  %i.next = add %i, %one : i32
  %go = icmp slt %i.next, %n : i1
  cond_br %go, loop, exit
exit:
  ret
}
)",
                                "check-bounds");
  CHECK(Out.find("kernel @k(%a: ptr<f32>, %b: ptr<f32>, %c: i1, %n: i32, %a.extent: i64, "
                 "%b.extent: i64, %bounds.report: ptr<i64>)") != std::string::npos);
  CHECK(checks(Out) == 1);
  CHECK(Out.find("store %s, %v\n") != std::string::npos); // unchecked, no mask added
}

TEST_CASE("check-bounds: atomics are checked, their masks narrowed") {
  std::string Out = runPipeline(R"(kernel @k(%a: ptr<i32>, %m: i1) {
entry:
  %one = constant 1 : i32
  %old = atomic_rmw add %a, %one, %m : i32
  %cas = atomic_cas %a, %one, %old : i32
  ret
}
)",
                                "check-bounds");
  CHECK(checks(Out) == 2);
  CHECK(Out.find("%old = atomic_rmw add %a, %one, %") != std::string::npos);
  CHECK(Out.find("atomic_rmw add %a, %one, %m") == std::string::npos);
  CHECK(Out.find("%cas = atomic_cas %a, %one, %old, %") != std::string::npos);
}
