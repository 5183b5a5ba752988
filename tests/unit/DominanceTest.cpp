// Tests of ir/Dominance: immediate dominators on diamonds, loops, irreducible
// and unreachable blocks, a brute-force cross-check on random CFGs, and
// dominance of definitions over uses (same block, arguments, phi edges).
#include "ir/Builder.h"
#include "ir/Context.h"
#include "ir/Dominance.h"
#include "ir/Module.h"
#include "ir/PassManager.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <doctest/doctest.h>

#include <random>

using namespace tritium;

namespace {

/// A function @f(%c: i1, %n: i32) with \p NumBlocks empty blocks, and a
/// builder; edges are added with br/condBr/ret.
struct CFG {
  Context Ctx;
  Module M{Ctx};
  Function *F;
  IRBuilder B{Ctx};
  std::vector<BasicBlock *> BB;

  explicit CFG(unsigned NumBlocks) {
    F = M.createFunction("f", FunctionType::get(Ctx, {Type::getI1(Ctx),
                                                      Type::getI32(Ctx)},
                                                {}));
    for (unsigned I = 0; I < NumBlocks; ++I)
      BB.push_back(F->createBlock());
  }
  Value *cond() { return F->getArg(0); }
  void br(unsigned From, unsigned To) {
    B.setInsertPoint(BB[From]);
    B.createBr(BB[To]);
  }
  void condBr(unsigned From, unsigned T, unsigned E) {
    B.setInsertPoint(BB[From]);
    B.createCondBr(cond(), BB[T], BB[E]);
  }
  void ret(unsigned From) {
    B.setInsertPoint(BB[From]);
    B.createRet();
  }
  std::string print(const DominatorTree &DT) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    DT.print(OS);
    return S;
  }
};

} // namespace

TEST_CASE("dominators of a diamond") {
  CFG G(4);
  G.condBr(0, 1, 2);
  G.br(1, 3);
  G.br(2, 3);
  G.ret(3);
  DominatorTree DT(*G.F);
  CHECK(G.print(DT) == "bb0\nbb2 <- bb0\nbb1 <- bb0\nbb3 <- bb0\n");
  CHECK(DT.getIDom(G.BB[0]) == nullptr);
  CHECK(DT.getIDom(G.BB[3]) == G.BB[0]);
  CHECK(DT.dominates(G.BB[0], G.BB[3]));
  CHECK(DT.dominates(G.BB[3], G.BB[3]));
  CHECK_FALSE(DT.dominates(G.BB[1], G.BB[3]));
  CHECK_FALSE(DT.dominates(G.BB[1], G.BB[2]));
  CHECK_FALSE(DT.dominates(G.BB[3], G.BB[0]));
  REQUIRE(DT.getReversePostOrder().size() == 4);
  CHECK(DT.getReversePostOrder().front() == G.BB[0]);
  CHECK(DT.getReversePostOrder().back() == G.BB[3]);
}

TEST_CASE("dominators of a loop with an exit from the header") {
  // bb0 -> bb1 (header) -> bb2 (body) -> bb1; bb1 -> bb3 (exit).
  CFG G(4);
  G.br(0, 1);
  G.condBr(1, 2, 3);
  G.br(2, 1);
  G.ret(3);
  DominatorTree DT(*G.F);
  CHECK(DT.getIDom(G.BB[1]) == G.BB[0]);
  CHECK(DT.getIDom(G.BB[2]) == G.BB[1]);
  CHECK(DT.getIDom(G.BB[3]) == G.BB[1]);
  CHECK(DT.dominates(G.BB[1], G.BB[2]));
  CHECK_FALSE(DT.dominates(G.BB[2], G.BB[1]));
  CHECK_FALSE(DT.dominates(G.BB[2], G.BB[3]));
}

TEST_CASE("dominators of a loop whose latch exits") {
  // bb0 -> bb1 -> bb2 -> {bb1, bb3}: the exit is dominated by the latch.
  CFG G(4);
  G.br(0, 1);
  G.br(1, 2);
  G.condBr(2, 1, 3);
  G.ret(3);
  DominatorTree DT(*G.F);
  CHECK(DT.getIDom(G.BB[3]) == G.BB[2]);
  CHECK(DT.dominates(G.BB[1], G.BB[3]));
}

TEST_CASE("dominators of the irreducible example of Cooper, Harvey and Kennedy") {
  // Figure 4 of the paper, nodes renamed: 6 -> bb0, 5 -> bb1, 4 -> bb2,
  // 1 -> bb3, 2 -> bb4, 3 -> bb5. Every idom is the entry, which the
  // paper reaches only after more than one pass.
  CFG G(6);
  G.condBr(0, 1, 2);
  G.br(1, 3);
  G.condBr(2, 4, 5);
  G.br(3, 4);
  G.condBr(4, 3, 5);
  G.br(5, 4);
  DominatorTree DT(*G.F);
  for (unsigned I = 1; I < 6; ++I)
    CHECK(DT.getIDom(G.BB[I]) == G.BB[0]);
  CHECK_FALSE(DT.dominates(G.BB[4], G.BB[3]));
  CHECK_FALSE(DT.dominates(G.BB[3], G.BB[4]));
}

TEST_CASE("unreachable blocks are outside the tree and dominated by all") {
  // bb2 is unreachable and branches into bb1; that edge does not count.
  CFG G(3);
  G.br(0, 1);
  G.ret(1);
  G.br(2, 1);
  DominatorTree DT(*G.F);
  CHECK(G.print(DT) == "bb0\nbb1 <- bb0\nbb2 unreachable\n");
  CHECK(DT.isReachable(G.BB[1]));
  CHECK_FALSE(DT.isReachable(G.BB[2]));
  CHECK(DT.getIDom(G.BB[1]) == G.BB[0]);
  CHECK(DT.getIDom(G.BB[2]) == nullptr);
  CHECK(DT.dominates(G.BB[1], G.BB[2]));
  CHECK(DT.dominates(G.BB[2], G.BB[2]));
  CHECK_FALSE(DT.dominates(G.BB[2], G.BB[1]));
  CHECK(DT.getReversePostOrder().size() == 2);
}

TEST_CASE("a block without a terminator ends the paths through it") {
  CFG G(3);
  G.condBr(0, 1, 2);
  G.br(2, 1);
  DominatorTree DT(*G.F); // bb1 has no terminator
  CHECK(DT.getIDom(G.BB[1]) == G.BB[0]);
  CHECK(DT.getIDom(G.BB[2]) == G.BB[0]);
}

TEST_CASE("an empty function has an empty tree") {
  CFG G(0);
  DominatorTree DT(*G.F);
  CHECK(DT.getReversePostOrder().empty());
  CHECK(G.print(DT).empty());
}

TEST_CASE("a long chain of blocks does not overflow the stack") {
  const unsigned N = 20000;
  CFG G(N);
  for (unsigned I = 0; I + 1 < N; ++I)
    G.br(I, I + 1);
  G.ret(N - 1);
  DominatorTree DT(*G.F);
  CHECK(DT.getIDom(G.BB[N - 1]) == G.BB[N - 2]);
  CHECK(DT.dominates(G.BB[1], G.BB[N - 1]));
  CHECK_FALSE(DT.dominates(G.BB[N - 1], G.BB[1]));
}

namespace {
/// Blocks reachable from the entry without passing through \p Removed.
llvm::SmallPtrSet<BasicBlock *, 16> reachableAvoiding(Function &F,
                                                      BasicBlock *Removed) {
  llvm::SmallPtrSet<BasicBlock *, 16> Seen;
  llvm::SmallVector<BasicBlock *, 16> Work;
  if (&F.front() != Removed) {
    Seen.insert(&F.front());
    Work.push_back(&F.front());
  }
  while (!Work.empty())
    for (BasicBlock *S : Work.pop_back_val()->successors())
      if (S != Removed && Seen.insert(S).second)
        Work.push_back(S);
  return Seen;
}
} // namespace

TEST_CASE("dominance agrees with its definition on random CFGs") {
  // A dominates B iff B is reachable and removing A makes B unreachable.
  std::mt19937 Rng(1234);
  for (unsigned Round = 0; Round < 200; ++Round) {
    unsigned N = 2 + Rng() % 12;
    CFG G(N);
    for (unsigned I = 0; I < N; ++I) {
      switch (Rng() % 4) {
      case 0: G.ret(I); break;
      case 1: G.br(I, Rng() % N); break;
      default: G.condBr(I, Rng() % N, Rng() % N); break;
      }
    }
    DominatorTree DT(*G.F);
    auto Reachable = reachableAvoiding(*G.F, nullptr);
    for (BasicBlock *A : G.BB) {
      auto Avoiding = reachableAvoiding(*G.F, A);
      for (BasicBlock *B : G.BB) {
        bool Expected = !Reachable.count(B) ||
                        (Reachable.count(A) && !Avoiding.count(B));
        INFO("round " << Round << ": " << G.F->str());
        REQUIRE(DT.dominates(A, B) == Expected);
      }
    }
  }
}

TEST_CASE("definitions dominate uses") {
  // bb0: %x = add %n, %n; cond_br %c, bb1, bb2
  // bb1: %y = add %x, %x; br bb2
  // bb2: %p = phi [%n, bb0], [%y, bb1]; %z = add %p, %x; ret
  CFG G(3);
  Value *N = G.F->getArg(1);
  G.B.setInsertPoint(G.BB[0]);
  Value *X = G.B.createBinary(Opcode::Add, N, N);
  G.condBr(0, 1, 2);
  G.B.setInsertPoint(G.BB[1]);
  Value *Y = G.B.createBinary(Opcode::Add, X, X);
  G.br(1, 2);
  G.B.setInsertPoint(G.BB[2]);
  PhiInst *P = G.B.createPhi(G.B.getI32Ty());
  P->addIncoming(N, G.BB[0]);
  P->addIncoming(Y, G.BB[1]);
  Value *Z = G.B.createBinary(Opcode::Add, P->getResult(), X);
  G.ret(2);
  DominatorTree DT(*G.F);

  Instruction *XI = X->getDefiningInstruction();
  Instruction *YI = Y->getDefiningInstruction();
  Instruction *ZI = Z->getDefiningInstruction();
  CHECK(DT.dominates(N, XI)); // arguments dominate everything
  CHECK(DT.dominates(X, YI));
  CHECK(DT.dominates(X, ZI));
  CHECK(DT.dominates(P->getResult(), ZI));
  CHECK_FALSE(DT.dominates(X, XI)); // not itself
  CHECK_FALSE(DT.dominates(Y, ZI)); // bb1 does not dominate bb2
  CHECK_FALSE(DT.dominates(Z, P)); // later in the same block

  // The phi reads %y at the end of bb1, which %y's block dominates.
  CHECK(DT.dominates(Y, P->getOperandUse(1)));
  CHECK(DT.dominatesEdgeUse(Y, G.BB[1]));
  CHECK_FALSE(DT.dominatesEdgeUse(Y, G.BB[0]));
  CHECK(DT.dominates(X, P->getOperandUse(1)));
  CHECK(DT.dominates(N, P->getOperandUse(0)));
  // A use that is not a phi's is checked at its user.
  CHECK(DT.dominates(X, ZI->getOperandUse(1)));
  CHECK_FALSE(DT.dominates(Y, ZI->getOperandUse(1)));
}

TEST_CASE("a loop phi may use a value defined later in the loop") {
  // bb0: br bb1
  // bb1: %i = phi [%n, bb0], [%next, bb1]; %next = add %i, %n;
  //      cond_br %c, bb1, bb2
  // bb2: ret
  CFG G(3);
  Value *N = G.F->getArg(1);
  G.br(0, 1);
  G.B.setInsertPoint(G.BB[1]);
  PhiInst *I = G.B.createPhi(G.B.getI32Ty());
  Value *Next = G.B.createBinary(Opcode::Add, I->getResult(), N);
  I->addIncoming(N, G.BB[0]);
  I->addIncoming(Next, G.BB[1]);
  G.condBr(1, 1, 2);
  G.ret(2);
  DominatorTree DT(*G.F);
  CHECK(DT.dominates(Next, I->getOperandUse(1)));
  // As a position the phi comes before %next.
  CHECK_FALSE(DT.dominates(Next, I));
  CHECK(DT.dominates(I->getResult(), Next->getDefiningInstruction()));
}

TEST_CASE("uses in unreachable blocks are dominated by everything") {
  // bb1 is unreachable: %a = add %b, %n; %b = add %a, %n; br bb1.
  CFG G(2);
  G.ret(0);
  Value *N = G.F->getArg(1);
  G.B.setInsertPoint(G.BB[1]);
  Value *A = G.B.createBinary(Opcode::Add, N, N);
  Value *B = G.B.createBinary(Opcode::Add, A, N);
  Instruction *AI = A->getDefiningInstruction();
  AI->setOperand(0, B);
  G.br(1, 1);
  DominatorTree DT(*G.F);
  CHECK(DT.dominates(B, AI));
  CHECK(DT.dominates(A, AI));
  // But a definition in an unreachable block dominates no reachable use.
  CHECK_FALSE(DT.dominates(A, G.BB[0]->getTerminator()));
}

TEST_CASE("an instruction in no block dominates nothing") {
  CFG G(1);
  G.ret(0);
  Value *N = G.F->getArg(1);
  G.B.setInsertPoint(G.BB[0], G.BB[0]->begin());
  Value *X = G.B.createBinary(Opcode::Add, N, N);
  Instruction *XI = X->getDefiningInstruction();
  XI->removeFromParent();
  DominatorTree DT(*G.F);
  CHECK_FALSE(DT.dominates(X, G.BB[0]->getTerminator()));
  CHECK_FALSE(DT.dominatesEdgeUse(X, G.BB[0]));
  delete XI;
}

TEST_CASE("the analysis manager caches the dominator tree") {
  CFG G(2);
  G.br(0, 1);
  G.ret(1);
  AnalysisManager AM;
  DominatorTree &DT = AM.get<DominatorTreeAnalysis>(*G.F);
  CHECK(DT.getIDom(G.BB[1]) == G.BB[0]);
  CHECK(&AM.get<DominatorTreeAnalysis>(*G.F) == &DT);
  CHECK(AM.getCached<DominatorTreeAnalysis>(*G.F) == &DT);
  AM.invalidate(PreservedAnalyses::none());
  CHECK(AM.getCached<DominatorTreeAnalysis>(*G.F) == nullptr);
}
