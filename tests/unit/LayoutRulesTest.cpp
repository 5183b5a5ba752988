// The layout rules (analysis/LayoutRules.h) on kernels parsed from text:
// coalesced layouts from the axis analysis's facts, restrict and project for
// broadcasts, register mappings, and the forward and backward rule of each
// opcode family.
#include "analysis/AxisInfo.h"
#include "analysis/LayoutRules.h"
#include "ir/Context.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "ir/Verifier.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace {

/// A kernel parsed (and verified) from text, its values found by name.
struct Parsed {
  Context Ctx;
  std::unique_ptr<Module> M;
  Function *F = nullptr;

  explicit Parsed(llvm::StringRef IR) {
    M = parseModule(IR, Ctx);
    verifyModuleOrThrow(*M);
    F = M->functions().front();
  }
  Value *value(llvm::StringRef Name) const {
    for (Argument *A : F->args())
      if (A->getName() == Name)
        return A;
    for (BasicBlock &B : *F)
      for (Instruction &I : B)
        for (unsigned R = 0; R < I.getNumResults(); ++R)
          if (I.getResult(R)->getName() == Name)
            return I.getResult(R);
    FAIL("no value %" << Name.str());
    return nullptr;
  }
  Instruction &inst(llvm::StringRef Name) const {
    return *value(Name)->getDefiningInstruction();
  }
};

LayoutOptions warps(unsigned N) {
  LayoutOptions O;
  O.NumWarps = N;
  return O;
}

/// A 1-d pointer block `%p` of \p N elements of \p Elem at `%x + range`,
/// with the given argument attributes.
std::string pointerKernel(const std::string &Elem, unsigned N, const std::string &Attrs) {
  std::string B = "<" + std::to_string(N) + " x ";
  return "kernel @k(%x: ptr<" + Elem + ">" + Attrs + ") {\nbb0:\n"
         "  %r = make_range {start=0, end=" + std::to_string(N) + "} : " + B + "i32>\n"
         "  %xs = splat %x : " + B + "ptr<" + Elem + ">>\n"
         "  %p = getelementptr %xs, %r : " + B + "ptr<" + Elem + ">>\n"
         "  ret\n}\n";
}

std::string coalesced(const std::string &Elem, unsigned N, const std::string &Attrs,
                      unsigned NumWarps = 4) {
  Parsed P(pointerKernel(Elem, N, Attrs));
  AxisInfoAnalysis AI(*P.F);
  return coalescedLayout(P.value("p"), AI, warps(NumWarps)).str();
}

/// The 2-d tile kernel of the reductions, broadcasts and transposes below:
/// %v is a 32 x 64 f32 tile loaded row-major from a 16-byte aligned base.
const char *TileIR = R"(
kernel @tile(%x: ptr<f32> {divisibility=16}) {
bb0:
  %r = make_range {start=0, end=32} : <32 x i32>
  %c = make_range {start=0, end=64} : <64 x i32>
  %r2 = expand_dims %r {axis=1} : <32 x 1 x i32>
  %c2 = expand_dims %c {axis=0} : <1 x 64 x i32>
  %k = constant 64 : <32 x 1 x i32>
  %rs = mul %r2, %k : <32 x 1 x i32>
  %rb = broadcast %rs : <32 x 64 x i32>
  %cb = broadcast %c2 : <32 x 64 x i32>
  %off = add %rb, %cb : <32 x 64 x i32>
  %xs = splat %x : <32 x 64 x ptr<f32>>
  %p = getelementptr %xs, %off : <32 x 64 x ptr<f32>>
  %v = load %p : <32 x 64 x f32>
  %e = exp %v : <32 x 64 x f32>
  %s = reduce %v {axis=1, kind=fadd} : <32 x f32>
  %m = argmax %v {axis=0} : <64 x i32>
  %s2 = expand_dims %s {axis=1} : <32 x 1 x f32>
  %sb = broadcast %s2 : <32 x 64 x f32>
  %t = trans %v {order=[1, 0]} : <64 x 32 x f32>
  %f = reshape %v : <2048 x f32>
  %cs = scan %v {axis=1, kind=fadd} : <32 x 64 x f32>
  %j = join %v, %e : <32 x 64 x 2 x f32>
  %h0, %h1 = split %j : <32 x 64 x f32>, <32 x 64 x f32>
  %cat = cat %v, %e : <64 x 64 x f32>
  %d = dot %t, %v, %cat : <64 x 64 x f32>
  ret
}
)";

/// The layout of the tile's loads: 4 f32 per thread along the row, 16 lanes
/// along the row and 2 down, 4 warps down, repeated over rows 8 and 16.
const char *TileLayout = "register=[[0,1],[0,2],[8,0],[16,0]] "
                         "lane=[[0,4],[0,8],[0,16],[0,32],[1,0]] "
                         "warp=[[2,0],[4,0]] -> dim0:32, dim1:64";

LinearLayout tileLayout(const Parsed &P) {
  AxisInfoAnalysis AI(*P.F);
  return coalescedLayout(P.value("p"), AI, warps(4));
}

std::string infer(const Parsed &P, llvm::StringRef Name,
                  llvm::ArrayRef<const LinearLayout *> Ops) {
  std::optional<LinearLayout> L = inferResultLayout(P.inst(Name), Ops);
  return L ? L->str() : "none";
}

std::string require(const Parsed &P, llvm::StringRef Name, unsigned K,
                    const LinearLayout &Result) {
  std::optional<LinearLayout> L = requiredOperandLayout(P.inst(Name), K, Result);
  return L ? L->str() : "none";
}

} // namespace

TEST_CASE("coalescedLayout: the vector width comes from alignment and contiguity") {
  // 16-byte aligned f32: 4 per thread, then lanes, then warps, then repeat.
  CHECK(coalesced("f32", 1024, " {divisibility=16}") ==
        "register=[[1],[2],[512]] lane=[[4],[8],[16],[32],[64]] "
        "warp=[[128],[256]] -> dim0:1024");
  // 8 bytes: 2 per thread.
  CHECK(coalesced("f32", 1024, " {divisibility=8}") ==
        "register=[[1],[256],[512]] lane=[[2],[4],[8],[16],[32]] "
        "warp=[[64],[128]] -> dim0:1024");
  // Unknown alignment: 1 per thread, consecutive threads on consecutive
  // elements.
  CHECK(coalesced("f32", 1024, "") ==
        "register=[[128],[256],[512]] lane=[[1],[2],[4],[8],[16]] "
        "warp=[[32],[64]] -> dim0:1024");
  // 16 bytes are 8 halves or 2 doubles.
  CHECK(coalesced("f16", 1024, " {divisibility=16}") ==
        "register=[[1],[2],[4]] lane=[[8],[16],[32],[64],[128]] "
        "warp=[[256],[512]] -> dim0:1024");
  CHECK(coalesced("f64", 256, " {divisibility=16}") ==
        "register=[[1]] lane=[[2],[4],[8],[16],[32]] warp=[[64],[128]] -> dim0:256");
  // More warps, fewer registers.
  CHECK(coalesced("f32", 1024, " {divisibility=16}", 8) ==
        "register=[[1],[2]] lane=[[4],[8],[16],[32],[64]] "
        "warp=[[128],[256],[512]] -> dim0:1024");
  // A block smaller than the CTA: one per thread (so that every thread
  // accesses), the rest copies.
  CHECK(coalesced("f32", 64, " {divisibility=16}") ==
        "register=[] lane=[[1],[2],[4],[8],[16]] warp=[[32],[0]] -> dim0:64");
  // 256 elements on 128 threads: 2 each though 4 would be aligned.
  CHECK(coalesced("f32", 256, " {divisibility=16}") ==
        "register=[[1]] lane=[[2],[4],[8],[16],[32]] warp=[[64],[128]] -> dim0:256");
}

TEST_CASE("coalescedLayout at least as wide as a neighbouring access") {
  Parsed P(pointerKernel("f32", 1024, ""));
  AxisInfoAnalysis AI(*P.F);
  // Unknown alignment: its own vector is one element.
  CHECK(accessVectorWidth(P.value("p"), AI) == 1);
  // Beside a 4-wide access: 4 in a thread (scalar loads, the vector
  // access's layout).
  CHECK(coalescedLayout(P.value("p"), AI, warps(4), 4).str() ==
        "register=[[1],[2],[512]] lane=[[4],[8],[16],[32],[64]] "
        "warp=[[128],[256]] -> dim0:1024");
  // Never more than the thread's share of the block.
  CHECK(coalescedLayout(P.value("p"), AI, warps(4), 16).str() ==
        "register=[[1],[2],[4]] lane=[[8],[16],[32],[64],[128]] "
        "warp=[[256],[512]] -> dim0:1024");
  Parsed Q(pointerKernel("f64", 256, " {divisibility=16}"));
  AxisInfoAnalysis QI(*Q.F);
  CHECK(accessVectorWidth(Q.value("p"), QI) == 2);
}

TEST_CASE("coalescedLayout of a 2-d tile: vectors along the contiguous dimension") {
  Parsed P(TileIR);
  AxisInfoAnalysis AI(*P.F);
  CHECK(accessOrder(P.value("p"), AI) == llvm::SmallVector<unsigned, 4>{1, 0});
  CHECK(tileLayout(P).str() == TileLayout);
}

TEST_CASE("defaultLayout, fmaDotLayout and scalarLayout") {
  CHECK(defaultLayout({1024}, warps(4)).str() ==
        "register=[[128],[256],[512]] lane=[[1],[2],[4],[8],[16]] "
        "warp=[[32],[64]] -> dim0:1024");
  // Row-major, one element per thread.
  CHECK(defaultLayout({16, 16}, warps(4)).str() ==
        "register=[[8,0]] lane=[[0,1],[0,2],[0,4],[0,8],[1,0]] "
        "warp=[[2,0],[4,0]] -> dim0:16, dim1:16");
  // A 4 x 4 tile per thread where the block has room.
  CHECK(fmaDotLayout({64, 64}, warps(4)).str() ==
        "register=[[0,1],[0,2],[1,0],[2,0],[32,0]] "
        "lane=[[0,4],[0,8],[0,16],[0,32],[4,0]] warp=[[8,0],[16,0]] "
        "-> dim0:64, dim1:64");
  // 16 x 16 on 128 threads: one row of 4 per thread, copies on a warp bit.
  CHECK(fmaDotLayout({16, 16}, warps(4)).str() ==
        "register=[[0,1],[0,2]] lane=[[0,4],[0,8],[1,0],[2,0],[4,0]] "
        "warp=[[8,0],[0,0]] -> dim0:16, dim1:16");
  // Batched: the batch dimension is slowest.
  LinearLayout B = fmaDotLayout({2, 32, 32}, warps(4));
  CHECK(B.getOutDims().size() == 3);
  CHECK(B.isSurjective());
  // A scalar: no registers, every lane and warp bit a copy, rank 0.
  LinearLayout S = scalarLayout(warps(4));
  CHECK(S.str() == "register=[] lane=[[],[],[],[],[]] warp=[[],[]] -> ");
  CHECK(getRank(S) == 0);
}

TEST_CASE("ThreadRuns: each of the cpu's threads one run of the block") {
  LayoutOptions O;
  O.NumWarps = 16, O.WarpSize = 1, O.ThreadRuns = true;
  CHECK(defaultLayout({1024}, O).str() ==
        "register=[[1],[2],[4],[8],[16],[32]] lane=[] "
        "warp=[[64],[128],[256],[512]] -> dim0:1024");
  // Two whole rows a thread: the row first, then the next row.
  CHECK(defaultLayout({32, 64}, O).str() ==
        "register=[[0,1],[0,2],[0,4],[0,8],[0,16],[0,32],[1,0]] lane=[] "
        "warp=[[2,0],[4,0],[8,0],[16,0]] -> dim0:32, dim1:64");
  // Fewer elements than threads: one each, the rest copies.
  CHECK(defaultLayout({8}, O).str() ==
        "register=[] lane=[] warp=[[1],[2],[4],[0]] -> dim0:8");
  // One thread: the whole block, in the order the GPU's rule gives it too;
  // a dot's result row-major, not in the FMA dot's 4x4 tiles.
  O.NumWarps = 1;
  CHECK(fmaDotLayout({4, 8}, O).str() ==
        "register=[[0,1],[0,2],[0,4],[1,0],[2,0]] lane=[] warp=[] -> dim0:4, dim1:8");
  LayoutOptions G = O;
  G.ThreadRuns = false;
  CHECK(defaultLayout({16, 16}, O) == defaultLayout({16, 16}, G));
}

TEST_CASE("restrictLayout and projectLayout: a broadcast's source seen in the result") {
  // The tile layout viewed on a 32 x 1 source: registers that only moved
  // along dimension 1 are dropped by restrict and kept (as copies) by
  // project; lanes along dimension 1 become copies in both.
  BlockedParams Bp{{1, 4}, {2, 16}, {4, 1}, {1, 0}};
  LinearLayout L = blockedLayout({32, 64}, Bp);
  CHECK(L.str() == TileLayout);
  CHECK(restrictLayout(L, {32, 1}).str() ==
        "register=[[8,0],[16,0]] lane=[[0,0],[0,0],[0,0],[0,0],[1,0]] "
        "warp=[[2,0],[4,0]] -> dim0:32, dim1:1");
  CHECK(projectLayout(L, {32, 1}).str() ==
        "register=[[0,0],[0,0],[8,0],[16,0]] lane=[[0,0],[0,0],[0,0],[0,0],[1,0]] "
        "warp=[[2,0],[4,0]] -> dim0:32, dim1:1");
  // On a 1 x 64 source, the rows vanish instead.
  CHECK(restrictLayout(L, {1, 64}).str() ==
        "register=[[0,1],[0,2]] lane=[[0,4],[0,8],[0,16],[0,32],[0,0]] "
        "warp=[[0,0],[0,0]] -> dim0:1, dim1:64");
  // Every register of the broadcast result finds its value in a register
  // of the restricted source: the broadcast moves no data.
  std::optional<llvm::SmallVector<int32_t, 16>> M =
      registerMapping(restrictLayout(L, {32, 1}), projectLayout(L, {32, 1}));
  REQUIRE(M);
  CHECK(*M == llvm::SmallVector<int32_t, 16>{0, 0, 0, 0, 1, 1, 1, 1,
                                             2, 2, 2, 2, 3, 3, 3, 3});
}

TEST_CASE("registerMapping: a permutation when lanes and warps agree") {
  LinearLayout A = blockedLayout({8, 8}, {{2, 2}, {4, 8}, {1, 1}, {1, 0}});
  REQUIRE(A.getBases(kRegister).size() == 2);
  // The same lanes with the two register bits swapped.
  LinearLayout::InDim Regs{kRegister, {A.getBases(kRegister)[1], A.getBases(kRegister)[0]}};
  LinearLayout::InDim Lanes{kLane, {}};
  Lanes.Bases.append(A.getBases(kLane).begin(), A.getBases(kLane).end());
  LinearLayout B({Regs, Lanes, {kWarp, {}}}, A.getOutDims());
  CHECK(registerMapping(A, A) == llvm::SmallVector<int32_t, 16>{0, 1, 2, 3});
  CHECK(registerMapping(A, B) == llvm::SmallVector<int32_t, 16>{0, 2, 1, 3});
  // Different lanes: data crosses threads.
  LinearLayout C = blockedLayout({8, 8}, {{2, 2}, {8, 4}, {1, 1}, {1, 0}});
  CHECK_FALSE(registerMapping(A, C));
  // Different shapes never map.
  CHECK_FALSE(registerMapping(A, blockedLayout({8, 16}, {{2, 2}, {4, 8}, {1, 1}, {1, 0}})));
}

TEST_CASE("inferResultLayout: elementwise ops keep, reductions slice") {
  Parsed P(TileIR);
  LinearLayout L = tileLayout(P);
  CHECK(infer(P, "e", {&L}) == TileLayout);
  CHECK(infer(P, "cs", {&L}) == TileLayout); // a scan keeps the layout
  CHECK(infer(P, "s", {&L}) ==
        "register=[[8],[16]] lane=[[0],[0],[0],[0],[1]] warp=[[2],[4]] -> dim0:32");
  CHECK(infer(P, "m", {&L}) ==
        "register=[[1],[2]] lane=[[4],[8],[16],[32],[0]] warp=[[0],[0]] -> dim0:64");
  // Operands not placed yet: the users decide.
  CHECK(infer(P, "e", {nullptr}) == "none");
  CHECK(infer(P, "s", {nullptr}) == "none");
  // Sources and broadcasts are placed by their users.
  CHECK(infer(P, "r", {}) == "none");
  CHECK(infer(P, "xs", {nullptr}) == "none");
  LinearLayout S2 = expandDimsLayout(sliceLayout(L, 1), 1);
  CHECK(infer(P, "sb", {&S2}) == "none");
}

TEST_CASE("inferResultLayout: shape ops reinterpret the same bits") {
  Parsed P(TileIR);
  LinearLayout L = tileLayout(P);
  LinearLayout S = sliceLayout(L, 1);
  CHECK(infer(P, "s2", {&S}) ==
        "register=[[8,0],[16,0]] lane=[[0,0],[0,0],[0,0],[0,0],[1,0]] "
        "warp=[[2,0],[4,0]] -> dim0:32, dim1:1");
  CHECK(infer(P, "t", {&L}) ==
        "register=[[1,0],[2,0],[0,8],[0,16]] lane=[[4,0],[8,0],[16,0],[32,0],[0,1]] "
        "warp=[[0,2],[0,4]] -> dim0:64, dim1:32");
  CHECK(infer(P, "f", {&L}) ==
        "register=[[1],[2],[512],[1024]] lane=[[4],[8],[16],[32],[64]] "
        "warp=[[128],[256]] -> dim0:2048");
  // join: the new dimension is the highest register bit; split takes it off.
  std::string J = infer(P, "j", {&L, &L});
  CHECK(J == "register=[[0,1,0],[0,2,0],[8,0,0],[16,0,0],[0,0,1]] "
             "lane=[[0,4,0],[0,8,0],[0,16,0],[0,32,0],[1,0,0]] "
             "warp=[[2,0,0],[4,0,0]] -> dim0:32, dim1:64, dim2:2");
  std::optional<LinearLayout> JL = inferResultLayout(P.inst("j"), {&L, &L});
  REQUIRE(JL);
  CHECK(infer(P, "h0", {&*JL}) == TileLayout);
  // Only one operand placed is enough.
  CHECK(infer(P, "j", {nullptr, &L}) == J);
  // cat: the halves are the highest register bit of dimension 0.
  CHECK(infer(P, "cat", {&L, &L}) ==
        "register=[[0,1],[0,2],[8,0],[16,0],[32,0]] "
        "lane=[[0,4],[0,8],[0,16],[0,32],[1,0]] warp=[[2,0],[4,0]] "
        "-> dim0:64, dim1:64");
  // A split whose last dimension is on lanes has no rule (it is converted).
  LinearLayout OnLanes = blockedLayout({32, 64, 2}, {{1, 1, 1}, {1, 16, 2}, {4, 1, 1}, {2, 1, 0}});
  CHECK(infer(P, "h0", {&OnLanes}) == "none");
}

TEST_CASE("inferResultLayout: joins of scalars through scalarLayout") {
  Parsed P(R"(
kernel @k(%a: f32, %b: f32) {
bb0:
  %j = join %a, %b : <2 x f32>
  ret
}
)");
  LinearLayout S = scalarLayout(warps(4));
  CHECK(infer(P, "j", {&S, &S}) ==
        "register=[[1]] lane=[[0],[0],[0],[0],[0]] warp=[[0],[0]] -> dim0:2");
  CHECK(infer(P, "j", {nullptr, nullptr}) == "none");
}

TEST_CASE("requiredOperandLayout: memory and elementwise ops need the result's") {
  Parsed P(R"(
kernel @k(%x: ptr<f32> {divisibility=16}, %n: i32) {
bb0:
  %r = make_range {start=0, end=256} : <256 x i32>
  %xs = splat %x : <256 x ptr<f32>>
  %p = getelementptr %xs, %r : <256 x ptr<f32>>
  %ns = splat %n : <256 x i32>
  %m = icmp slt %r, %ns : <256 x i1>
  %v = load %p, %m : <256 x f32>
  %w = fadd %v, %v : <256 x f32>
  %c = select %m, %w, %v : <256 x f32>
  store %p, %c, %m
  %a = atomic_rmw fadd %p, %c, %m : <256 x f32>
  %s = reduce %c {axis=0, kind=fadd} : f32
  ret
}
)");
  LinearLayout L = defaultLayout({256}, warps(4));
  for (llvm::StringRef Name : {"p", "v", "w", "c", "a", "m"}) {
    Instruction &I = P.inst(Name);
    for (unsigned K = 0; K < I.getNumOperands(); ++K)
      if (I.getOperand(K)->getType()->isBlock())
        CHECK_MESSAGE(require(P, Name, K, L) == L.str(), Name.str() << " operand " << K);
  }
  // Scalar operands are not constrained.
  CHECK(require(P, "xs", 0, L) == "none");
  // A reduction's operand follows its operand's anchor, not the result.
  CHECK(require(P, "s", 0, L) == "none");
}

TEST_CASE("requiredOperandLayout: shape ops invert their forward rule") {
  Parsed P(TileIR);
  LinearLayout L = tileLayout(P);
  // expand_dims: the slice; broadcast: the restriction.
  CHECK(require(P, "s2", 0, expandDimsLayout(sliceLayout(L, 1), 1)) ==
        sliceLayout(L, 1).str());
  CHECK(require(P, "sb", 0, L) == restrictLayout(L, {32, 1}).str());
  CHECK(require(P, "cb", 0, L) == restrictLayout(L, {1, 64}).str());
  // trans and reshape: the forward rule run backwards gives L again.
  std::optional<LinearLayout> T = inferResultLayout(P.inst("t"), {&L});
  std::optional<LinearLayout> F = inferResultLayout(P.inst("f"), {&L});
  REQUIRE(T);
  REQUIRE(F);
  CHECK(require(P, "t", 0, *T) == TileLayout);
  CHECK(require(P, "f", 0, *F) == TileLayout);
  // join: each operand without the new register bit; split: with it.
  std::optional<LinearLayout> J = inferResultLayout(P.inst("j"), {&L, &L});
  REQUIRE(J);
  CHECK(require(P, "j", 0, *J) == TileLayout);
  CHECK(require(P, "j", 1, *J) == TileLayout);
  CHECK(require(P, "h0", 0, L) == J->str());
  // A join whose new dimension is on lanes has no operand rule.
  LinearLayout OnLanes = blockedLayout({32, 64, 2}, {{1, 1, 1}, {1, 16, 2}, {4, 1, 1}, {2, 1, 0}});
  CHECK(require(P, "j", 0, OnLanes) == "none");
  // cat: the operands lose the top register bit of dimension 0; a layout
  // whose top bit of dimension 0 is a warp bit has no rule.
  std::optional<LinearLayout> C = inferResultLayout(P.inst("cat"), {&L, &L});
  REQUIRE(C);
  CHECK(require(P, "cat", 0, *C) == TileLayout);
  CHECK(require(P, "cat", 1, *C) == TileLayout);
  LinearLayout TopOnWarps = blockedLayout({64, 64}, {{1, 32}, {32, 1}, {2, 2}, {1, 0}});
  CHECK(TopOnWarps.getBases(kWarp)[1] == LinearLayout::Basis{32, 0});
  CHECK(require(P, "cat", 0, TopOnWarps) == "none");
  // dot: only the accumulator follows the result.
  LinearLayout D = fmaDotLayout({64, 64}, warps(4));
  CHECK(require(P, "d", 0, D) == "none");
  CHECK(require(P, "d", 1, D) == "none");
  CHECK(require(P, "d", 2, D) == D.str());
}

TEST_CASE("requiredOperandLayout: a split into scalars needs both in registers") {
  Parsed P(R"(
kernel @k(%x: ptr<f32>) {
bb0:
  %r = make_range {start=0, end=2} : <2 x i32>
  %xs = splat %x : <2 x ptr<f32>>
  %p = getelementptr %xs, %r : <2 x ptr<f32>>
  %v = load %p : <2 x f32>
  %a, %b = split %v : f32, f32
  ret
}
)");
  CHECK(require(P, "a", 0, scalarLayout(warps(4))) ==
        "register=[[1]] lane=[[0],[0],[0],[0],[0]] warp=[[0],[0]] -> dim0:2");
}

TEST_CASE("isRematerializable: sources only") {
  Parsed P(TileIR);
  CHECK(isRematerializable(P.inst("r")));
  CHECK(isRematerializable(P.inst("xs")));
  CHECK(isRematerializable(P.inst("k")));
  CHECK_FALSE(isRematerializable(P.inst("off")));
  CHECK_FALSE(isRematerializable(P.inst("v")));
}

TEST_CASE("checkLayoutFits: the kernel's warps and lanes, at most 2^20 registers") {
  LayoutOptions O = warps(4);
  CHECK(checkLayoutFits(defaultLayout({256}, O), O) == "");
  CHECK(checkLayoutFits(defaultLayout({256}, O), warps(8)).find(
            "is not one of 8 warps of 32 lanes") != std::string::npos);
  CHECK(checkLayoutFits(defaultLayout({1 << 20}, O), O) == "");
}

TEST_CASE("checkLayouts: what the lowering may assume of layout-level IR") {
  // %b's layout differs from what its user, %c, requires; %m's operands of
  // the two-operand reduce differ; the reduce's result is not the slice.
  Parsed P(R"(
func @f(%a: f32, %i: i32, %b: f32, %j: i32) -> (f32, i32) {
bb0:
  ret %a, %i
}
kernel @k(%p: ptr<f32>) {
bb0:
  %a = make_range {start=0, end=256, layout=<register=[[128]], lane=[[1], [2], [4], [8], [16]], warp=[[32], [64]], shape=[256]>} : <256 x i32>
  %b = sitofp %a {layout=<register=[[128]], lane=[[1], [2], [4], [8], [16]], warp=[[32], [64]], shape=[256]>} : <256 x f32>
  %c = fadd %b, %b {layout=<register=[[64], [128]], lane=[[1], [2], [4], [8], [16]], warp=[[32], [0]], shape=[256]>} : <256 x f32>
  %d = fadd %b, %b {layout=<register=[[128]], lane=[[1], [2], [4], [8], [16]], warp=[[32], [64]], shape=[256]>} : <256 x f32>
  %m, %n = reduce %c, %a {axis=0, combine=@f} : f32, i32
  %s, %t = reduce %d, %a {axis=0, combine=@f} : f32, i32
  ret
}
)");
  P.F = P.M->getFunction("k");
  LayoutOptions O = warps(4);
  CHECK(checkLayouts(P.inst("a"), O) == "");
  CHECK(checkLayouts(P.inst("b"), O) == "");
  CHECK(checkLayouts(P.inst("d"), O) == "");
  CHECK(checkLayouts(P.inst("c"), O).find("operand 0 has the layout") == 0);
  CHECK(checkLayouts(P.inst("m"), O).find("operand 1 has the layout") == 0);
  CHECK(sharedLayoutOperand(P.inst("m")) == P.value("c"));
  CHECK(checkLayouts(P.inst("s"), O) == "");
  CHECK(checkLayouts(P.inst("a"), warps(2)).find("is not one of 2 warps") != std::string::npos);
}
