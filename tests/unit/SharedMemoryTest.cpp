// Tests of analysis/SharedMemory: scratch sizes as the lowering uses them,
// intervals (adjacent ones do not overlap), the program order and its loops,
// liveness of values (closed over loops), first-fit offsets with and
// without interference, and the analysis through the AnalysisManager.
#include "analysis/SharedMemory.h"
#include "ir/Context.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Verifier.h"

#include <doctest/doctest.h>

#include <string>

using namespace tritium;

namespace {

// Two layouts of <256 x i32> over 4 warps; going from one to the other moves
// elements between lanes, so it goes through shared memory.
const char *LayoutA = "<register=[[1]], lane=[[2], [4], [8], [16], [32]], "
                      "warp=[[64], [128]], shape=[256]>";
const char *LayoutB = "<register=[[128]], lane=[[1], [2], [4], [8], [16]], "
                      "warp=[[32], [64]], shape=[256]>";

/// \p IR with $A and $B replaced by the layouts above.
std::string withLayouts(std::string IR) {
  for (auto [Key, L] : {std::pair<const char *, const char *>{"$A", LayoutA},
                        {"$B", LayoutB}})
    for (size_t At = IR.find(Key); At != std::string::npos; At = IR.find(Key))
      IR.replace(At, 2, L);
  return IR;
}

struct Parsed {
  Context Ctx;
  std::unique_ptr<Module> M;
  Function *F = nullptr;

  explicit Parsed(const std::string &IR) {
    M = parseModule(withLayouts(IR), Ctx);
    verifyModuleOrThrow(*M);
    F = M->functions().back();
  }
  /// The instruction defining %Name.
  Instruction &inst(llvm::StringRef Name) {
    for (BasicBlock &B : *F)
      for (Instruction &I : B)
        for (unsigned R = 0; R < I.getNumResults(); ++R)
          if (I.getResult(R)->getName() == Name)
            return I;
    FAIL("no %" << Name.str());
    return F->front().front();
  }
  BasicBlock &block(llvm::StringRef Name) {
    for (BasicBlock &B : *F)
      if (B.getName() == Name)
        return B;
    FAIL("no block " << Name.str());
    return F->front();
  }
  Value &value(llvm::StringRef Name) {
    for (Argument *A : F->args())
      if (A->getName() == Name)
        return *A;
    return *inst(Name).getResult(0);
  }
};

std::string printed(const SharedMemoryAllocation &A) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  A.print(OS);
  return OS.str();
}

SharedBuffer buffer(unsigned Size, Interval Live, unsigned Align = 16) {
  SharedBuffer B;
  B.Size = Size;
  B.Alignment = Align;
  B.Live = Live;
  return B;
}

} // namespace

TEST_CASE("shared memory: intervals meet only where they share a point") {
  CHECK_FALSE(Interval{0, 16}.intersects({16, 32})); // adjacent
  CHECK_FALSE(Interval{16, 32}.intersects({0, 16}));
  CHECK(Interval{0, 16}.intersects({15, 32}));
  CHECK(Interval{0, 64}.intersects({16, 32})); // nested
  CHECK_FALSE(Interval{0, 16}.intersects({32, 48}));
  CHECK_FALSE(Interval{4, 4}.intersects({0, 16})); // empty
  CHECK(Interval::all().intersects({1000, 1001}));
  CHECK(Interval{2, 4}.hull({8, 9}) == Interval{2, 9});
  CHECK(Interval{}.hull({8, 9}) == Interval{8, 9});
}

TEST_CASE("shared memory: scratch sizes follow the lowering") {
  Parsed P(R"(kernel @k(%p: ptr<i32>, %q: ptr<f32>, %a: <16 x 8 x f16>, %b: <8 x 16 x f16>, %acc: <16 x 16 x f32>) {
bb0:
  %r = make_range {start=0, end=256, layout=$A} : <256 x i32>
  %c = convert_layout %r {layout=$B} : <256 x i32>
  %same = convert_layout %c {layout=$B} : <256 x i32>
  %m = icmp slt %r, %r {layout=$A} : <256 x i1>
  %mc = convert_layout %m {layout=$B} : <256 x i1>
  %s = reduce %c {axis=0, kind=add} : i32
  %i = argmax %c {axis=0, tie_break_left} : i32
  %w = make_range {start=0, end=32, layout=<register=[], lane=[[1], [2], [4], [8], [16]], warp=[[0], [0]], shape=[32]>} : <32 x i32>
  %ws = reduce %w {axis=0, kind=add} : i32
  %cs = scan %c {axis=0, kind=add} : <256 x i32>
  %d = dot %a, %b, %acc : <16 x 16 x f32>
  %one = constant 1 : i32
  %old = atomic_rmw add %p, %one : i32
  %unused = atomic_rmw add %p, %one : i32
  store %p, %old
  %ps = splat %p {layout=<register=[], lane=[[1], [2], [4], [8], [16]], warp=[[0], [0]], shape=[32]>} : <32 x ptr<i32>>
  %pw = getelementptr %ps, %w {layout=<register=[], lane=[[1], [2], [4], [8], [16]], warp=[[0], [0]], shape=[32]>} : <32 x ptr<i32>>
  %copied = atomic_rmw add %pw, %w {layout=<register=[], lane=[[1], [2], [4], [8], [16]], warp=[[0], [0]], shape=[32]>} : <32 x i32>
  store %pw, %copied
  %pa = splat %p {layout=$A} : <256 x ptr<i32>>
  %pr = getelementptr %pa, %r {layout=$A} : <256 x ptr<i32>>
  %own = atomic_rmw add %pr, %r {layout=$A} : <256 x i32>
  store %pr, %own
  ret
}
)");
  CHECK(getScratchBytes(P.inst("r")) == 0);
  CHECK(getScratchBytes(P.inst("c")) == 256 * 4);
  CHECK(getScratchBytes(P.inst("same")) == 0); // registers only
  CHECK(getScratchBytes(P.inst("mc")) == 256); // i1 takes a byte
  // One slot per warp along the axis (4) per result element (1).
  CHECK(getScratchBytes(P.inst("s")) == 4 * 4);
  CHECK(getScratchBytes(P.inst("i")) == 4 * (4 + 4)); // value and i32 index
  CHECK(getScratchBytes(P.inst("ws")) == 0);          // within one warp
  CHECK(getScratchBytes(P.inst("cs")) == 256 * 4);
  // A (16 x 8 f16 = 256 bytes, a multiple of 16), then B (256 bytes).
  CHECK(getScratchBytes(P.inst("d")) == 256 + 256);
  CHECK(getScratchBytes(P.inst("old")) == 8);
  CHECK(getScratchBytes(P.inst("unused")) == 0);
  CHECK(getScratchBytes(P.inst("one")) == 0);
  // Block atomics whose old values are read: where warps hold copies, one
  // slot per element; where no thread holds a copy, none.
  CHECK(atomicSharesResult(P.inst("copied")));
  CHECK(getScratchBytes(P.inst("copied")) == 32 * 4);
  CHECK_FALSE(atomicSharesResult(P.inst("own")));
  CHECK(getScratchBytes(P.inst("own")) == 0);

  DominatorTree DT(*P.F);
  SharedMemoryAllocation A(*P.F, DT);
  // Scratch buffers never live at once: all start at 0, the total is the
  // largest.
  CHECK(A.getBuffers().size() == 8);
  for (const SharedBuffer &B : A.getBuffers())
    CHECK(B.Offset == 0);
  CHECK(A.getTotalBytes() == 1024);
  CHECK(A.getScratchOffset(P.inst("c")) == 0u);
  CHECK_FALSE(A.getScratchOffset(P.inst("same")).has_value());
  CHECK(A.getScratchBuffer(P.inst("old"))->Alignment == 8);
  CHECK(A.getScratchBuffer(P.inst("copied"))->Alignment == 8);
  CHECK(A.getScratchBuffer(P.inst("c"))->Alignment == 16);
  CHECK(A.getScratchBuffer(P.inst("s"))->Alignment == 4);
}

TEST_CASE("shared memory: an instruction's accesses are write, barrier, read") {
  Parsed P(R"(kernel @k() {
bb0:
  %r = make_range {start=0, end=256, layout=$A} : <256 x i32>
  %c = convert_layout %r {layout=$B} : <256 x i32>
  ret
}
)");
  DominatorTree DT(*P.F);
  SharedMemoryAllocation A(*P.F, DT);
  SharedAccesses Acc = A.getAccesses(P.inst("c"));
  REQUIRE(Acc.size() == 3);
  CHECK(Acc[0].AccessKind == SharedAccess::Kind::Write);
  CHECK(Acc[0].Bytes == Interval{0, 1024});
  CHECK(Acc[1].AccessKind == SharedAccess::Kind::Barrier);
  CHECK(Acc[2].AccessKind == SharedAccess::Kind::Read);
  CHECK(Acc[2].Bytes == Interval{0, 1024});
  CHECK(A.getAccesses(P.inst("r")).empty());
}

TEST_CASE("shared memory: a call is opaque only if the callee may use it") {
  Parsed P(R"(func noinline @smem() {
bb0:
  %r = make_range {start=0, end=256, layout=$A} : <256 x i32>
  %c = convert_layout %r {layout=$B} : <256 x i32>
  ret
}

func noinline @plain(%x: i32) -> i32 {
bb0:
  ret %x
}

kernel @k(%x: i32) {
bb0:
  call @smem()
  %y = call @plain(%x) : i32
  ret
}
)");
  DominatorTree DT(*P.F);
  SharedMemoryAllocation A(*P.F, DT);
  Instruction &Call = P.F->front().front();
  SharedAccesses Acc = A.getAccesses(Call);
  REQUIRE(Acc.size() == 1);
  CHECK(Acc[0].AccessKind == SharedAccess::Kind::Opaque);
  CHECK(Acc[0].Bytes == Interval::all());
  CHECK(A.getAccesses(P.inst("y")).empty());
}

TEST_CASE("shared memory: first fit places interfering buffers apart") {
  SUBCASE("disjoint live ranges share offset 0") {
    SharedBuffer Bufs[] = {buffer(1024, {0, 1}), buffer(512, {1, 2}),
                           buffer(2048, {5, 9})};
    CHECK(assignSharedOffsets(Bufs) == 2048);
    for (const SharedBuffer &B : Bufs)
      CHECK(B.Offset == 0);
  }
  SUBCASE("overlapping live ranges stack, largest first") {
    SharedBuffer Bufs[] = {buffer(256, {0, 10}), buffer(1024, {2, 4}),
                           buffer(512, {3, 8})};
    CHECK(assignSharedOffsets(Bufs) == 1792);
    CHECK(Bufs[1].Offset == 0);    // placed first
    CHECK(Bufs[2].Offset == 1024); // meets the first
    CHECK(Bufs[0].Offset == 1536); // meets both
  }
  SUBCASE("a buffer takes the lowest gap among those it meets") {
    // C [20,30) and A [0,10) never meet: both at 0. B [5,15) meets A only;
    // D [12,25) meets B and C.
    SharedBuffer Bufs[] = {buffer(1024, {0, 10}), buffer(512, {5, 15}),
                           buffer(2048, {20, 30}), buffer(256, {12, 25})};
    CHECK(assignSharedOffsets(Bufs) == 2304);
    CHECK(Bufs[2].Offset == 0);
    CHECK(Bufs[0].Offset == 0);
    CHECK(Bufs[1].Offset == 1024);
    CHECK(Bufs[3].Offset == 2048);
  }
  SUBCASE("a gap between placed buffers is reused when it fits") {
    // The last one meets the buffers at [0, 512) and [1024, 1536) but not
    // the one at [0, 1024): it fits in between.
    SharedBuffer Bufs[] = {buffer(1024, {20, 30}), buffer(512, {0, 30}),
                           buffer(512, {0, 10}), buffer(256, {0, 10})};
    CHECK(assignSharedOffsets(Bufs) == 1536);
    CHECK(Bufs[0].Offset == 0);
    CHECK(Bufs[1].Offset == 1024);
    CHECK(Bufs[2].Offset == 0);
    CHECK(Bufs[3].Offset == 512);
  }
  SUBCASE("alignment rounds an offset up") {
    SharedBuffer Bufs[] = {buffer(24, {0, 4}, 8), buffer(16, {0, 4}, 16),
                           buffer(4, {0, 4}, 4)};
    CHECK(assignSharedOffsets(Bufs) == 48);
    CHECK(Bufs[0].Offset == 0);
    CHECK(Bufs[1].Offset == 32); // not 24
    CHECK(Bufs[2].Offset == 24);
  }
  SUBCASE("nothing to place") {
    CHECK(assignSharedOffsets({}) == 0);
  }
}

TEST_CASE("shared memory: program order numbers reachable blocks") {
  Parsed P(R"(kernel @k(%n: i32) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  br header
header:
  %i = phi [%z, entry], [%i.next, body] : i32
  %c = icmp slt %i, %n : i1
  cond_br %c, body, exit
body:
  %i.next = add %i, %one : i32
  br header
exit:
  ret
dead:
  br exit
}
)");
  DominatorTree DT(*P.F);
  ProgramOrder O(*P.F, DT);
  CHECK(O.size() == 9);
  CHECK(O.getPosition(P.inst("z")) == 0);
  CHECK(O.getPosition(P.inst("i")) == 3);
  CHECK_FALSE(O.hasPosition(P.block("dead").front())); // dead: unreachable
  // The loop spans header to body, the exit after it.
  REQUIRE(O.getLoops().size() == 1);
  Interval Header = O.getBlockRange(*P.inst("i").getParent());
  Interval Body = O.getBlockRange(*P.inst("i.next").getParent());
  CHECK(Header == Interval{3, 6});
  CHECK(O.getLoops()[0] == Header.hull(Body));
  CHECK(Body.Start == Header.End);
  CHECK(O.getBlockRange(P.block("exit")).Start == Body.End);
}

TEST_CASE("shared memory: program order keeps each loop's blocks together") {
  // Plain reverse post-order visits the exit first and puts each body after
  // all that follows its loop: the first loop would then cover the second.
  Parsed P(R"(kernel @k(%n: i32, %p: ptr<i32>) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  br h1
h1:
  %i = phi [%z, entry], [%i.next, b1] : i32
  %c1 = icmp slt %i, %n : i1
  cond_br %c1, b1, h2
b1:
  %i.next = add %i, %one : i32
  br h1
h2:
  %j = phi [%i, h1], [%j.next, b2] : i32
  %c2 = icmp slt %j, %n : i1
  cond_br %c2, b2, exit
b2:
  %j.next = add %j, %one : i32
  br h2
exit:
  store %p, %j
  ret
}
)");
  DominatorTree DT(*P.F);
  ProgramOrder O(*P.F, DT);
  REQUIRE(O.getLoops().size() == 2);
  Interval First = O.getBlockRange(P.block("h1")).hull(O.getBlockRange(P.block("b1")));
  Interval Second = O.getBlockRange(P.block("h2")).hull(O.getBlockRange(P.block("b2")));
  CHECK(First.size() == O.getBlockRange(P.block("h1")).size() +
                            O.getBlockRange(P.block("b1")).size());
  CHECK(Second.size() == O.getBlockRange(P.block("h2")).size() +
                             O.getBlockRange(P.block("b2")).size());
  CHECK_FALSE(First.intersects(Second));
  CHECK(O.getBlockRange(P.block("exit")).Start >= Second.End);
  // So values used in one loop only do not interfere with the other's.
  CHECK_FALSE(O.getLiveRange(P.value("i.next")).intersects(O.getLiveRange(P.value("j.next"))));
}

TEST_CASE("shared memory: live ranges of values close over loops") {
  // The values a long-lived buffer would hold: their ranges decide
  // interference the same way for any kind of buffer.
  Parsed P(R"(kernel @k(%n: i32, %p: ptr<i32>) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  %before = add %n, %one : i32
  %early = add %n, %n : i32
  store %p, %early
  br header
header:
  %i = phi [%z, entry], [%i.next, latch] : i32
  %c = icmp slt %i, %n : i1
  cond_br %c, body, exit
body:
  %local = add %i, %one : i32
  store %p, %local
  %t = add %i, %before : i32
  br latch
latch:
  %i.next = add %t, %one : i32
  br header
exit:
  store %p, %i
  ret
}
)");
  DominatorTree DT(*P.F);
  ProgramOrder O(*P.F, DT);
  REQUIRE(O.getLoops().size() == 1);
  Interval Loop = O.getLoops()[0];
  auto Pos = [&](llvm::StringRef Name) { return O.getPosition(P.inst(Name)); };

  // Defined and dead before the loop: untouched.
  CHECK(O.getLiveRange(P.value("early")) == Interval{Pos("early"), Pos("early") + 2});
  // Defined before the loop, used in it: live through all of it.
  Interval Before = O.getLiveRange(P.value("before"));
  CHECK(Before.Start == Pos("before"));
  CHECK(Before.contains(Loop));
  // Defined and dead within one iteration: untouched.
  CHECK(O.getLiveRange(P.value("local")) == Interval{Pos("local"), Pos("local") + 2});
  // Carried by the phi across the back edge: live to the end of the latch.
  Interval Next = O.getLiveRange(P.value("i.next"));
  CHECK(Next.Start == Pos("i.next"));
  CHECK(Next.End == O.getBlockRange(*P.inst("i.next").getParent()).End);
  // The phi: from the header to its last use in the body or the exit.
  Interval I = O.getLiveRange(P.value("i"));
  CHECK(I.Start == Pos("i"));
  CHECK(I.End > Pos("t"));
  CHECK(I.End > O.getBlockRange(P.block("exit")).Start);
  // An argument is live from the start.
  CHECK(O.getLiveRange(P.value("n")).Start == 0);

  // Buffers holding these values: those live at once get distinct bytes.
  SharedBuffer Bufs[] = {buffer(256, O.getLiveRange(P.value("early"))),
                         buffer(256, O.getLiveRange(P.value("before"))),
                         buffer(256, O.getLiveRange(P.value("local")))};
  CHECK(assignSharedOffsets(Bufs) == 512);
  CHECK(Bufs[1].Offset == 0);   // starts first
  CHECK(Bufs[0].Offset == 256); // meets `before`
  CHECK(Bufs[2].Offset == 256); // meets `before`; `early` is dead by then
}

TEST_CASE("shared memory: the analysis is cached and prints its buffers") {
  Parsed P(R"(kernel @k() {
bb0:
  %r = make_range {start=0, end=256, layout=$A} : <256 x i32>
  %c = convert_layout %r {layout=$B} : <256 x i32>
  %s = reduce %c {axis=0, kind=add} : i32
  ret
}
)");
  AnalysisManager AM;
  SharedMemoryAllocation &A = AM.get<SharedMemoryAllocation>(*P.F);
  CHECK(&AM.get<SharedMemoryAllocation>(*P.F) == &A);
  CHECK(printed(A) == "  total 1024 bytes\n"
                      "  scratch of %c = convert_layout: offset 0, size 1024, "
                      "align 16, live [1, 2)\n"
                      "  scratch of %s = reduce: offset 0, size 16, align 4, "
                      "live [2, 3)\n");
  AM.invalidate(PreservedAnalyses::none());
  CHECK(AM.getCached<SharedMemoryAllocation>(*P.F) == nullptr);
}

TEST_CASE("shared memory: allocations live until the last use of what derives from them") {
  // $S: a row-major shared layout of 256 elements.
  std::string S = "<offset=[[1], [2], [4], [8], [16], [32], [64], [128]], shape=[256]>";
  std::string One = "memdesc<256 x f32, " + S + ", mutable>";
  std::string Two = "memdesc<2 x 256 x f32, " + S + ", mutable>";
  Parsed P(R"(kernel @k(%c: i1) {
bb0:
  %two = local_alloc : )" + Two + R"(
  %zero = constant 0 : i32
  %one = constant 1 : i32
  %b0 = memdesc_index %two, %zero : )" + One + R"(
  %b1 = memdesc_index %two, %one : )" + One + R"(
  cond_br %c, left, join
left:
  br join
join:
  %cur = phi [%b0, bb0], [%b1, left] : )" + One + R"(
  %v = local_load %cur {layout=$A} : <256 x f32>
  %late = local_alloc %v : memdesc<256 x f32, )" + S + R"(>
  %w = local_load %late {layout=$A} : <256 x f32>
  local_store %b0, %w
  ret
}
)");
  DominatorTree DT(*P.F);
  SharedMemoryAllocation A(*P.F, DT);
  const SharedBuffer *Two_ = A.getAllocation(P.value("two"));
  const SharedBuffer *Late = A.getAllocation(P.value("late"));
  REQUIRE(Two_);
  REQUIRE(Late);
  // Through memdesc_index and a phi whose incoming buffers are one allocation's.
  CHECK(A.getAllocation(P.value("b1")) == Two_);
  CHECK(A.getAllocation(P.value("cur")) == Two_);
  CHECK(Two_->Size == 2048);
  CHECK(Two_->Alignment == 1024); // one buffer is 1 KB
  CHECK(Late->Alignment == 1024);
  // %two is live until the store through %b0, which is after %late: apart.
  CHECK(Two_->Live.intersects(Late->Live));
  CHECK_FALSE(Two_->bytes().intersects(Late->bytes()));
  CHECK(A.getTotalBytes() == 3072);
  // Accesses: an initializing allocation writes, loads read, stores write.
  using K = SharedAccess::Kind;
  SharedAccesses Init = A.getAccesses(P.inst("late"));
  REQUIRE(Init.size() == 1);
  CHECK(Init[0].AccessKind == K::Write);
  CHECK(Init[0].Bytes == Late->bytes());
  SharedAccesses Load = A.getAccesses(P.inst("v"));
  REQUIRE(Load.size() == 1);
  CHECK(Load[0].AccessKind == K::Read);
  CHECK(Load[0].Bytes == Two_->bytes());
  CHECK(A.getAccesses(P.inst("two")).empty()); // nothing written yet
  CHECK(A.getAccesses(P.inst("b0")).empty());
}

TEST_CASE("shared memory: a memdesc_trans view is its buffer's bytes") {
  std::string S = "<offset=[[1], [2], [4], [8], [16], [32], [64], [128]], shape=[256]>";
  std::string One = "memdesc<256 x f32, " + S + ", mutable>";
  Parsed P(R"(kernel @k() {
bb0:
  %two = local_alloc : memdesc<2 x 256 x f32, )" + S + R"(, mutable>
  %one = constant 1 : i32
  %b1 = memdesc_index %two, %one : )" + One + R"(
  %t = memdesc_trans %b1 {order=[0]} : )" + One + R"(
  %late = local_alloc : )" + One + R"(
  %v = local_load %t {layout=$A} : <256 x f32>
  local_store %late, %v
  ret
}
)");
  DominatorTree DT(*P.F);
  SharedMemoryAllocation A(*P.F, DT);
  const SharedBuffer *Two = A.getAllocation(P.value("two"));
  const SharedBuffer *Late = A.getAllocation(P.value("late"));
  REQUIRE(Two);
  REQUIRE(Late);
  CHECK(A.getAllocation(P.value("t")) == Two);
  // The read through the view keeps %two alive past %late's start.
  CHECK(Two->Live.intersects(Late->Live));
  CHECK_FALSE(Two->bytes().intersects(Late->bytes()));
  SharedAccesses Load = A.getAccesses(P.inst("v"));
  REQUIRE(Load.size() == 1);
  CHECK(Load[0].AccessKind == SharedAccess::Kind::Read);
  CHECK(Load[0].Bytes == Interval{Two->Offset + 1024, Two->Offset + 2048}); // buffer 1
}

TEST_CASE("shared memory: a phi of two allocations' buffers is all of shared memory") {
  std::string T = "memdesc<64 x f32, <offset=[[1], [2], [4], [8], [16], [32]], shape=[64]>, mutable>";
  Parsed P(R"(kernel @k(%c: i1) {
bb0:
  %a = local_alloc : )" + T + R"(
  %b = local_alloc : )" + T + R"(
  cond_br %c, left, join
left:
  br join
join:
  %x = phi [%a, bb0], [%b, left] : )" + T + R"(
  %v = local_load %x : <64 x f32>
  ret
}
)");
  DominatorTree DT(*P.F);
  SharedMemoryAllocation A(*P.F, DT);
  CHECK(A.getAllocation(P.value("x")) == nullptr);
  SharedAccesses Load = A.getAccesses(P.inst("v"));
  REQUIRE(Load.size() == 1);
  CHECK(Load[0].Bytes == Interval::all());
}
