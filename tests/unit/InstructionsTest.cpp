// Tests of the type rules in ir/Instructions.cpp: for every opcode family,
// instructions that pass and instructions that fail with their exact
// message. Every case is also handed to IRBuilder, which must accept the
// passing ones and throw CompileError with the same message for the others.
#include "ir/Builder.h"
#include "ir/Context.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"

#include "llvm/ADT/DenseMap.h"

#include <doctest/doctest.h>

#include <random>

using namespace tritium;

namespace {

Attribute intA(AttrKey K, int64_t V) { return {K, AttrValue::integer(V)}; }
Attribute fltA(AttrKey K, double V) { return {K, AttrValue::floating(V)}; }
Attribute enumA(AttrKey K, unsigned V) { return {K, AttrValue::enumerator(V)}; }
Attribute unitA(AttrKey K) { return {K, AttrValue::unit()}; }
Attribute strA(AttrKey K, llvm::StringRef S) { return {K, AttrValue::string(S)}; }
Attribute symA(AttrKey K, llvm::StringRef S) { return {K, AttrValue::symbol(S)}; }
Attribute listA(AttrKey K, llvm::ArrayRef<int64_t> L) {
  return {K, AttrValue::intList(L)};
}
Attribute axis(int64_t A) { return intA(AttrKey::Axis, A); }
Attribute kind(CombineKind K) { return enumA(AttrKey::Kind, unsigned(K)); }
Attribute combine(llvm::StringRef Fn) { return symA(AttrKey::Combine, Fn); }
Attribute ipred(ICmpPredicate P) { return enumA(AttrKey::IPredicate, unsigned(P)); }
Attribute fpred(FCmpPredicate P) { return enumA(AttrKey::FPredicate, unsigned(P)); }
Attribute rmw(AtomicKind K) { return enumA(AttrKey::RMWKind, unsigned(K)); }
Attribute cache(CacheModifier C) { return enumA(AttrKey::Cache, unsigned(C)); }

struct Rules {
  Context Ctx;
  Module M{Ctx};
  Function *F = M.createFunction("f", FunctionType::get(Ctx, {}, {}));
  BasicBlock *Entry = F->createBlock();
  IRBuilder Builder{Ctx};
  /// Branch targets; never part of a function.
  BasicBlock B0, B1;

  Type *I1 = Type::getI1(Ctx), *I8 = Type::getI8(Ctx), *I32 = Type::getI32(Ctx),
       *I64 = Type::getI64(Ctx), *F16 = Type::getF16(Ctx),
       *BF16 = Type::getBF16(Ctx), *F32 = Type::getF32(Ctx),
       *E4M3 = Type::getFloat(Ctx, Type::Kind::F8E4M3),
       *E5M2 = Type::getFloat(Ctx, Type::Kind::F8E5M2),
       *Void = Type::getVoid(Ctx), *Ptr = PointerType::get(F32),
       *PtrI32 = PointerType::get(I32);

  Type *blk(Type *E, llvm::ArrayRef<int64_t> Dims) {
    return BlockType::get(E, Dims);
  }
  /// A value of type \p T (an undef in @f).
  Value *val(Type *T) {
    Value *&V = Vals[T];
    if (!V) {
      Instruction *U = Instruction::create(Ctx, Opcode::Undef, {T}, {});
      Entry->push_back(U);
      V = U->getResult();
    }
    return V;
  }

  /// The checkTypes() message of an instruction built from these parts.
  /// Also checks that IRBuilder::insert accepts it or throws CompileError
  /// with that message.
  std::string check(Opcode Op, llvm::ArrayRef<Type *> Results,
                    llvm::ArrayRef<Value *> Ops, AttrList Attrs = {},
                    llvm::ArrayRef<BasicBlock *> Blocks = {}) {
    Instruction *I = Instruction::create(Ctx, Op, Results, Ops, Attrs, Blocks);
    std::string Msg = I->checkTypes();
    delete I;
    // The builder has no insertion point, so it leaves accepted ones alone.
    Instruction *Again = Instruction::create(Ctx, Op, Results, Ops, Attrs, Blocks);
    if (Msg.empty()) {
      CHECK_NOTHROW(Builder.insert(Again));
      delete Again;
    } else {
      CHECK_THROWS_WITH_AS(Builder.insert(Again), Msg.c_str(), CompileError);
    }
    return Msg;
  }

private:
  llvm::DenseMap<Type *, Value *> Vals;
};

} // namespace

TEST_CASE_FIXTURE(Rules, "attribute kinds, missing operands and blocks") {
  CHECK(check(Opcode::Constant, {I32}, {},
              {intA(AttrKey::Value, 1), intA(AttrKey::Value, 2)}) ==
        "attribute 'value' appears twice");
  CHECK(check(Opcode::Constant, {I32}, {}, {strA(AttrKey::Value, "1")}) ==
        "attribute 'value' has a value of the wrong kind");
  CHECK(check(Opcode::ICmp, {I1}, {val(I32), val(I32)},
              {enumA(AttrKey::IPredicate, 99)}) ==
        "attribute 'ipredicate' has a value of the wrong kind");
  CHECK(check(Opcode::Add, {I32}, {val(I32), nullptr}) == "operand 1 is missing");
  CHECK(check(Opcode::Br, {}, {}, {}, {nullptr}) == "a block operand is missing");
}

TEST_CASE_FIXTURE(Rules, "constant") {
  CHECK(check(Opcode::Constant, {I32}, {}, {intA(AttrKey::Value, 42)}) == "");
  CHECK(check(Opcode::Constant, {blk(F32, {16})}, {},
              {fltA(AttrKey::Value, 1.5)}) == "");
  // Integers are signless: both the signed and the unsigned range fit.
  CHECK(check(Opcode::Constant, {I8}, {}, {intA(AttrKey::Value, 255)}) == "");
  CHECK(check(Opcode::Constant, {I8}, {}, {intA(AttrKey::Value, -128)}) == "");
  CHECK(check(Opcode::Constant, {I1}, {}, {intA(AttrKey::Value, -1)}) == "");
  CHECK(check(Opcode::Constant, {I64}, {}, {intA(AttrKey::Value, INT64_MIN)}) == "");

  CHECK(check(Opcode::Constant, {I32}, {}) ==
        "'constant' requires attribute 'value'");
  CHECK(check(Opcode::Constant, {I8}, {}, {intA(AttrKey::Value, 256)}) ==
        "'constant' value 256 does not fit in i8");
  CHECK(check(Opcode::Constant, {I8}, {}, {intA(AttrKey::Value, -129)}) ==
        "'constant' value -129 does not fit in i8");
  CHECK(check(Opcode::Constant, {I1}, {}, {intA(AttrKey::Value, 2)}) ==
        "'constant' value 2 does not fit in i1");
  CHECK(check(Opcode::Constant, {I32}, {}, {fltA(AttrKey::Value, 1.0)}) ==
        "'constant' of type i32 needs an integer literal");
  CHECK(check(Opcode::Constant, {blk(F32, {4})}, {}, {intA(AttrKey::Value, 1)}) ==
        "'constant' of type <4 x f32> needs a float literal");
  CHECK(check(Opcode::Constant, {Ptr}, {}, {intA(AttrKey::Value, 0)}) ==
        "'constant' expects an integer or float type, got ptr<f32>");
  CHECK(check(Opcode::Constant, {I32}, {val(I32)}, {intA(AttrKey::Value, 0)}) ==
        "'constant' expects 0 operands, got 1");
  CHECK(check(Opcode::Constant, {I32, I32}, {}, {intA(AttrKey::Value, 0)}) ==
        "'constant' defines 1 result, got 2");
  CHECK(check(Opcode::Constant, {I32}, {}, {intA(AttrKey::Value, 0)}, {&B0}) ==
        "'constant' expects 0 block operands, got 1");
  CHECK(check(Opcode::Constant, {I32}, {}, {intA(AttrKey::Value, 0), axis(0)}) ==
        "attribute 'axis' is not valid on 'constant'");
}

TEST_CASE_FIXTURE(Rules, "undef") {
  CHECK(check(Opcode::Undef, {blk(Ptr, {16})}, {}) == "");
  CHECK(check(Opcode::Undef, {Void}, {}) ==
        "'undef' expects a scalar or block type, got void");
  CHECK(check(Opcode::Undef, {}, {}) == "'undef' defines 1 result, got 0");
}

TEST_CASE_FIXTURE(Rules, "binary") {
  Value *A = val(I32), *W = val(I64), *X = val(F32), *V = val(blk(F32, {16}));
  CHECK(check(Opcode::Add, {I32}, {A, A}) == "");
  CHECK(check(Opcode::UMulHi, {I64}, {W, W}) == "");
  CHECK(check(Opcode::FAdd, {blk(F32, {16})}, {V, V}) == "");
  CHECK(check(Opcode::FMaximum, {F32}, {X, X}) == "");

  CHECK(check(Opcode::Add, {I32}, {A, W}) ==
        "'add' operands must have the same type, got i32 and i64");
  CHECK(check(Opcode::Shl, {F32}, {X, X}) == "'shl' expects integer operands, got f32");
  CHECK(check(Opcode::FDiv, {I32}, {A, A}) == "'fdiv' expects float operands, got i32");
  CHECK(check(Opcode::Sub, {Ptr}, {val(Ptr), val(Ptr)}) ==
        "'sub' expects integer operands, got ptr<f32>");
  CHECK(check(Opcode::Add, {I64}, {A, A}) == "'add' result must be i32, got i64");
  CHECK(check(Opcode::Add, {I32}, {A}) == "'add' expects 2 operands, got 1");
  CHECK(check(Opcode::Add, {I32}, {A, A}, {axis(0)}) ==
        "attribute 'axis' is not valid on 'add'");
}

TEST_CASE_FIXTURE(Rules, "unary") {
  Value *A = val(I32), *X = val(F32);
  CHECK(check(Opcode::Neg, {I32}, {A}) == "");
  CHECK(check(Opcode::Abs, {blk(F32, {16})}, {val(blk(F32, {16}))}) == "");
  CHECK(check(Opcode::Erf, {F32}, {X}) == "");

  CHECK(check(Opcode::Exp, {I32}, {A}) == "'exp' expects float operands, got i32");
  CHECK(check(Opcode::Neg, {Ptr}, {val(Ptr)}) ==
        "'neg' expects integer or float operands, got ptr<f32>");
  CHECK(check(Opcode::Sqrt, {F16}, {X}) == "'sqrt' result must be f32, got f16");
  CHECK(check(Opcode::Floor, {F32}, {X, X}) == "'floor' expects 1 operand, got 2");
}

TEST_CASE_FIXTURE(Rules, "fma") {
  Value *X = val(F32);
  CHECK(check(Opcode::Fma, {F32}, {X, X, X}) == "");
  CHECK(check(Opcode::Fma, {F32}, {X, X, val(F16)}) ==
        "'fma' operands must have the same type, got f32 and f16");
  CHECK(check(Opcode::Fma, {I32}, {val(I32), val(I32), val(I32)}) ==
        "'fma' expects float operands, got i32");
  CHECK(check(Opcode::Fma, {F16}, {X, X, X}) == "'fma' result must be f32, got f16");
}

TEST_CASE_FIXTURE(Rules, "icmp and fcmp") {
  Value *A = val(I32), *X = val(F32), *V = val(blk(F32, {16}));
  CHECK(check(Opcode::ICmp, {I1}, {A, A}, {ipred(ICmpPredicate::SLT)}) == "");
  CHECK(check(Opcode::ICmp, {I1}, {val(Ptr), val(Ptr)}, {ipred(ICmpPredicate::EQ)}) == "");
  CHECK(check(Opcode::FCmp, {blk(I1, {16})}, {V, V}, {fpred(FCmpPredicate::OLT)}) == "");

  CHECK(check(Opcode::ICmp, {I1}, {A, A}) == "'icmp' requires attribute 'ipredicate'");
  CHECK(check(Opcode::ICmp, {I1}, {A, A}, {fpred(FCmpPredicate::OLT)}) ==
        "attribute 'fpredicate' is not valid on 'icmp'");
  CHECK(check(Opcode::ICmp, {I1}, {A, val(I64)}, {ipred(ICmpPredicate::EQ)}) ==
        "'icmp' operands must have the same type, got i32 and i64");
  CHECK(check(Opcode::ICmp, {I1}, {X, X}, {ipred(ICmpPredicate::EQ)}) ==
        "'icmp' expects integer or pointer operands, got f32");
  CHECK(check(Opcode::FCmp, {I1}, {A, A}, {fpred(FCmpPredicate::OEQ)}) ==
        "'fcmp' expects float operands, got i32");
  CHECK(check(Opcode::ICmp, {I32}, {A, A}, {ipred(ICmpPredicate::EQ)}) ==
        "'icmp' result must be i1, got i32");
  CHECK(check(Opcode::FCmp, {I1}, {V, V}, {fpred(FCmpPredicate::UNO)}) ==
        "'fcmp' result must be <16 x i1>, got i1");
}

TEST_CASE_FIXTURE(Rules, "select") {
  Value *C = val(I1), *VC = val(blk(I1, {16})), *A = val(I32),
        *V = val(blk(F32, {16}));
  Type *V16 = blk(F32, {16});
  CHECK(check(Opcode::Select, {I32}, {C, A, A}) == "");
  CHECK(check(Opcode::Select, {V16}, {C, V, V}) == "");
  CHECK(check(Opcode::Select, {V16}, {VC, V, V}) == "");

  CHECK(check(Opcode::Select, {I32}, {C, A, val(I64)}) ==
        "'select' values must have the same type, got i32 and i64");
  CHECK(check(Opcode::Select, {I32}, {A, A, A}) ==
        "'select' condition must be i1 or an i1 block shaped like i32, got i32");
  CHECK(check(Opcode::Select, {I32}, {VC, A, A}) ==
        "'select' condition must be i1 or an i1 block shaped like i32, got <16 x i1>");
  CHECK(check(Opcode::Select, {V16}, {val(blk(I1, {8})), V, V}) ==
        "'select' condition must be i1 or an i1 block shaped like <16 x f32>, "
        "got <8 x i1>");
  CHECK(check(Opcode::Select, {I64}, {C, A, A}) == "'select' result must be i32, got i64");
}

TEST_CASE_FIXTURE(Rules, "casts") {
  Value *B8 = val(I8), *A = val(I32), *W = val(I64), *H = val(F16),
        *X = val(F32), *P = val(Ptr), *V = val(blk(I32, {16}));
  Attribute RTZ = enumA(AttrKey::Rounding, unsigned(RoundingMode::RTZ));
  CHECK(check(Opcode::Trunc, {I8}, {A}) == "");
  CHECK(check(Opcode::Trunc, {blk(I8, {16})}, {V}) == "");
  CHECK(check(Opcode::ZExt, {I32}, {B8}) == "");
  CHECK(check(Opcode::SExt, {I64}, {A}) == "");
  CHECK(check(Opcode::FPTrunc, {F16}, {X}, {RTZ}) == "");
  CHECK(check(Opcode::FPTrunc, {E4M3}, {H}) == "");
  CHECK(check(Opcode::FPExt, {F32}, {H}) == "");
  CHECK(check(Opcode::FPToUI, {I32}, {X}) == "");
  CHECK(check(Opcode::FPToSI, {I8}, {H}) == "");
  CHECK(check(Opcode::UIToFP, {F32}, {A}) == "");
  CHECK(check(Opcode::SIToFP, {F16}, {W}) == "");
  CHECK(check(Opcode::Bitcast, {F32}, {A}) == "");
  CHECK(check(Opcode::Bitcast, {PtrI32}, {P}) == "");
  CHECK(check(Opcode::PtrToInt, {I64}, {P}) == "");
  CHECK(check(Opcode::IntToPtr, {Ptr}, {W}) == "");

  CHECK(check(Opcode::Trunc, {I32}, {B8}) ==
        "'trunc' casts an integer to a narrower integer, not i8 to i32");
  CHECK(check(Opcode::ZExt, {I32}, {A}) ==
        "'zext' casts an integer to a wider integer, not i32 to i32");
  CHECK(check(Opcode::SExt, {I32}, {X}) ==
        "'sext' casts an integer to a wider integer, not f32 to i32");
  CHECK(check(Opcode::FPTrunc, {F32}, {H}) ==
        "'fptrunc' casts a float to a narrower float, not f16 to f32");
  CHECK(check(Opcode::FPExt, {F16}, {val(BF16)}) ==
        "'fpext' casts a float to a wider float, not bf16 to f16");
  CHECK(check(Opcode::FPExt, {F32}, {H}, {RTZ}) ==
        "attribute 'rounding' is not valid on 'fpext'");
  CHECK(check(Opcode::FPToSI, {F32}, {A}) ==
        "'fptosi' casts a float to an integer, not i32 to f32");
  CHECK(check(Opcode::UIToFP, {I32}, {X}) ==
        "'uitofp' casts an integer to a float, not f32 to i32");
  CHECK(check(Opcode::Bitcast, {Ptr}, {A}) ==
        "'bitcast' casts between types of the same width (pointers to "
        "pointers), not i32 to ptr<f32>");
  CHECK(check(Opcode::Bitcast, {Ptr}, {W}) ==
        "'bitcast' casts between types of the same width (pointers to "
        "pointers), not i64 to ptr<f32>");
  CHECK(check(Opcode::Bitcast, {PointerType::get(F32, PointerType::Shared)}, {P}) ==
        "'bitcast' cannot change the address space of a pointer, not ptr<f32> "
        "to ptr<f32, 3>");
  CHECK(check(Opcode::PtrToInt, {I64}, {W}) ==
        "'ptrtoint' casts a pointer to an integer, not i64 to i64");
  CHECK(check(Opcode::IntToPtr, {I64}, {P}) ==
        "'inttoptr' casts an integer to a pointer, not ptr<f32> to i64");
  CHECK(check(Opcode::Trunc, {blk(I8, {8})}, {V}) ==
        "'trunc' operand and result must have the same shape, got <16 x i32> "
        "and <8 x i8>");
  CHECK(check(Opcode::ZExt, {I32}, {val(Void)}) ==
        "'zext' expects a scalar or block operand, got void");
}

TEST_CASE_FIXTURE(Rules, "getelementptr") {
  Type *VP = blk(Ptr, {16});
  Value *P = val(Ptr), *Ps = val(VP), *Offs = val(blk(I32, {16}));
  CHECK(check(Opcode::GetElementPtr, {Ptr}, {P, val(I32)}) == "");
  CHECK(check(Opcode::GetElementPtr, {Ptr}, {P, val(I64)}) == "");
  CHECK(check(Opcode::GetElementPtr, {VP}, {Ps, Offs}) == "");

  CHECK(check(Opcode::GetElementPtr, {Ptr}, {P, val(F32)}) ==
        "'getelementptr' expects an integer offset, got f32");
  CHECK(check(Opcode::GetElementPtr, {I32}, {val(I32), val(I32)}) ==
        "'getelementptr' expects a pointer or a block of pointers, got i32");
  CHECK(check(Opcode::GetElementPtr, {VP}, {Ps, val(I32)}) ==
        "'getelementptr' pointer and offset must have the same shape, got "
        "<16 x ptr<f32>> and i32");
  CHECK(check(Opcode::GetElementPtr, {Ptr}, {Ps, Offs}) ==
        "'getelementptr' result must be <16 x ptr<f32>>, got ptr<f32>");
}

TEST_CASE_FIXTURE(Rules, "load") {
  Type *V16 = blk(F32, {16});
  Value *P = val(Ptr), *Ps = val(blk(Ptr, {16})), *Mask = val(blk(I1, {16}));
  CHECK(check(Opcode::Load, {F32}, {P}) == "");
  CHECK(check(Opcode::Load, {V16}, {Ps, Mask}) == "");
  CHECK(check(Opcode::Load, {V16}, {Ps, Mask, val(V16)},
              {cache(CacheModifier::CG),
               enumA(AttrKey::Evict, unsigned(EvictionPolicy::EvictLast)),
               unitA(AttrKey::Volatile)}) == "");

  CHECK(check(Opcode::Load, {F32}, {P}, {cache(CacheModifier::WB)}) ==
        "'load' cache modifier must be ca, cg or cv, got wb");
  CHECK(check(Opcode::Load, {I32}, {val(I32)}) ==
        "'load' expects a pointer or a block of pointers, got i32");
  CHECK(check(Opcode::Load, {V16}, {Ps, val(blk(I32, {16}))}) ==
        "'load' mask must be i1 shaped like the pointer <16 x ptr<f32>>, got "
        "<16 x i32>");
  CHECK(check(Opcode::Load, {F32}, {P, Mask}) ==
        "'load' mask must be i1 shaped like the pointer ptr<f32>, got <16 x i1>");
  CHECK(check(Opcode::Load, {V16}, {Ps, Mask, val(F32)}) ==
        "'load' other must have the loaded type <16 x f32>, got f32");
  CHECK(check(Opcode::Load, {F16}, {P}) == "'load' result must be f32, got f16");
  CHECK(check(Opcode::Load, {F32}, {P, val(I1), val(F32), val(F32)}) ==
        "'load' expects 1 to 3 operands, got 4");
  CHECK(check(Opcode::Load, {}, {P}) == "'load' defines 1 result, got 0");
}

TEST_CASE_FIXTURE(Rules, "store") {
  Value *P = val(Ptr), *X = val(F32);
  CHECK(check(Opcode::Store, {}, {P, X}) == "");
  CHECK(check(Opcode::Store, {},
              {val(blk(Ptr, {16})), val(blk(F32, {16})), val(blk(I1, {16}))},
              {cache(CacheModifier::CS),
               enumA(AttrKey::Evict, unsigned(EvictionPolicy::EvictFirst))}) == "");

  CHECK(check(Opcode::Store, {}, {P, X}, {cache(CacheModifier::CA)}) ==
        "'store' cache modifier must be wb, cg, cs or wt, got ca");
  CHECK(check(Opcode::Store, {}, {P, val(F16)}) ==
        "'store' value must have the pointee type f32, got f16");
  CHECK(check(Opcode::Store, {}, {val(I32), val(I32)}) ==
        "'store' expects a pointer or a block of pointers, got i32");
  CHECK(check(Opcode::Store, {F32}, {P, X}) == "'store' defines 0 results, got 1");
  CHECK(check(Opcode::Store, {}, {P}) == "'store' expects 2 to 3 operands, got 1");
  CHECK(check(Opcode::Store, {}, {P, X}, {unitA(AttrKey::Volatile)}) ==
        "attribute 'volatile' is not valid on 'store'");
}

TEST_CASE_FIXTURE(Rules, "atomic_rmw") {
  Type *VI = blk(I32, {16});
  Value *PI = val(PtrI32), *A = val(I32), *P = val(Ptr), *X = val(F32),
        *PP = val(PointerType::get(Ptr));
  CHECK(check(Opcode::AtomicRMW, {I32}, {PI, A},
              {rmw(AtomicKind::Add), enumA(AttrKey::Sem, unsigned(MemSem::Relaxed)),
               enumA(AttrKey::Scope, unsigned(MemScope::CTA))}) == "");
  CHECK(check(Opcode::AtomicRMW, {F32}, {P, X}, {rmw(AtomicKind::FAdd)}) == "");
  CHECK(check(Opcode::AtomicRMW, {F32}, {P, X}, {rmw(AtomicKind::Xchg)}) == "");
  CHECK(check(Opcode::AtomicRMW, {VI},
              {val(blk(PtrI32, {16})), val(VI), val(blk(I1, {16}))},
              {rmw(AtomicKind::UMax)}) == "");

  CHECK(check(Opcode::AtomicRMW, {I32}, {PI, A}) ==
        "'atomic_rmw' requires attribute 'rmw_kind'");
  CHECK(check(Opcode::AtomicRMW, {I32}, {PI, A}, {rmw(AtomicKind::FAdd)}) ==
        "'atomic_rmw fadd' needs f16, bf16, f32 or f64 elements, got i32");
  CHECK(check(Opcode::AtomicRMW, {F32}, {P, X}, {rmw(AtomicKind::Max)}) ==
        "'atomic_rmw max' needs integer elements of 32 or 64 bits, got f32");
  CHECK(check(Opcode::AtomicRMW, {Ptr}, {PP, P}, {rmw(AtomicKind::Xchg)}) ==
        "'atomic_rmw xchg' needs integer or float elements of 16, 32 or 64 bits, got ptr<f32>");
  // Widths the GPUs have atomics for: ptxas rejected the others.
  Type *I16 = Type::getI16(Ctx), *F8 = Type::getFloat(Ctx, Type::Kind::F8E4M3),
       *H = Type::getF16(Ctx);
  Value *P8 = val(PointerType::get(I8)), *P16 = val(PointerType::get(I16)),
        *PF8 = val(PointerType::get(F8)), *PF16 = val(PointerType::get(H));
  CHECK(check(Opcode::AtomicRMW, {I16}, {P16, val(I16)}, {rmw(AtomicKind::Xchg)}) == "");
  CHECK(check(Opcode::AtomicRMW, {H}, {PF16, val(H)},
              {rmw(AtomicKind::FAdd)}) == "");
  CHECK(check(Opcode::AtomicRMW, {I16}, {P16, val(I16)}, {rmw(AtomicKind::Add)}) ==
        "'atomic_rmw add' needs integer elements of 32 or 64 bits, got i16");
  CHECK(check(Opcode::AtomicRMW, {I8}, {P8, val(I8)}, {rmw(AtomicKind::Xchg)}) ==
        "'atomic_rmw xchg' needs integer or float elements of 16, 32 or 64 bits, got i8");
  CHECK(check(Opcode::AtomicRMW, {F8}, {PF8, val(F8)}, {rmw(AtomicKind::FAdd)}) ==
        "'atomic_rmw fadd' needs f16, bf16, f32 or f64 elements, got f8e4m3");
  CHECK(check(Opcode::AtomicCAS, {I8}, {P8, val(I8), val(I8)}) ==
        "'atomic_cas' needs integer or float elements of 16, 32 or 64 bits, got i8");
  CHECK(check(Opcode::AtomicCAS, {I16}, {P16, val(I16), val(I16)}) == "");
  CHECK(check(Opcode::AtomicRMW, {I32}, {PI, X}, {rmw(AtomicKind::Add)}) ==
        "'atomic_rmw' value must have the pointee type i32, got f32");
  CHECK(check(Opcode::AtomicRMW, {I64}, {PI, A}, {rmw(AtomicKind::Add)}) ==
        "'atomic_rmw' result must be i32, got i64");
  CHECK(check(Opcode::AtomicRMW, {I32}, {PI, A},
              {rmw(AtomicKind::Add), cache(CacheModifier::CG)}) ==
        "attribute 'cache' is not valid on 'atomic_rmw'");
}

TEST_CASE_FIXTURE(Rules, "atomic_cas") {
  Type *VI = blk(I32, {16});
  Value *PI = val(PtrI32), *A = val(I32), *P = val(Ptr);
  CHECK(check(Opcode::AtomicCAS, {I32}, {PI, A, A}) == "");
  CHECK(check(Opcode::AtomicCAS, {VI},
              {val(blk(PtrI32, {16})), val(VI), val(VI), val(blk(I1, {16}))}) == "");

  CHECK(check(Opcode::AtomicCAS, {I32}, {PI, A, val(F32)}) ==
        "'atomic_cas' compare and new values must have the pointee type i32, "
        "got i32 and f32");
  CHECK(check(Opcode::AtomicCAS, {Ptr}, {val(PointerType::get(Ptr)), P, P}) ==
        "'atomic_cas' needs integer or float elements of 16, 32 or 64 bits, got ptr<f32>");
  CHECK(check(Opcode::AtomicCAS, {F32}, {PI, A, A}) ==
        "'atomic_cas' result must be i32, got f32");
  CHECK(check(Opcode::AtomicCAS, {I32}, {PI, A}) ==
        "'atomic_cas' expects 3 to 4 operands, got 2");
  CHECK(check(Opcode::AtomicCAS, {I32}, {PI, A, A}, {rmw(AtomicKind::Add)}) ==
        "attribute 'rmw_kind' is not valid on 'atomic_cas'");
}

TEST_CASE_FIXTURE(Rules, "make_range") {
  auto Range = [](int64_t S, int64_t E) -> AttrList {
    return {intA(AttrKey::Start, S), intA(AttrKey::End, E)};
  };
  Type *V16 = blk(I32, {16});
  CHECK(check(Opcode::MakeRange, {V16}, {}, Range(0, 16)) == "");
  CHECK(check(Opcode::MakeRange, {blk(I32, {4})}, {}, Range(8, 12)) == "");

  CHECK(check(Opcode::MakeRange, {V16}, {}, Range(4, 4)) ==
        "'make_range' needs 0 <= start < end <= 2^31, got [4, 4)");
  CHECK(check(Opcode::MakeRange, {V16}, {}, Range(-1, 15)) ==
        "'make_range' needs 0 <= start < end <= 2^31, got [-1, 15)");
  CHECK(check(Opcode::MakeRange, {V16}, {}, Range(0, int64_t(1) << 32)) ==
        "'make_range' needs 0 <= start < end <= 2^31, got [0, 4294967296)");
  CHECK(check(Opcode::MakeRange, {V16}, {}, Range(0, 12)) ==
        "'make_range' length 12 is not a power of two");
  CHECK(check(Opcode::MakeRange, {V16}, {}, {intA(AttrKey::Start, 0)}) ==
        "'make_range' requires attribute 'end'");
  CHECK(check(Opcode::MakeRange, {blk(I64, {16})}, {}, Range(0, 16)) ==
        "'make_range' result must be <16 x i32>, got <16 x i64>");
}

TEST_CASE_FIXTURE(Rules, "splat") {
  Value *X = val(F32);
  CHECK(check(Opcode::Splat, {blk(F32, {16})}, {X}) == "");
  CHECK(check(Opcode::Splat, {blk(Ptr, {4, 4})}, {val(Ptr)}) == "");

  CHECK(check(Opcode::Splat, {blk(F32, {4, 16})}, {val(blk(F32, {16}))}) ==
        "'splat' operand must be a scalar, got <16 x f32>");
  CHECK(check(Opcode::Splat, {blk(I32, {16})}, {X}) ==
        "'splat' result must be a block of f32, got <16 x i32>");
  CHECK(check(Opcode::Splat, {F32}, {X}) ==
        "'splat' result must be a block of f32, got f32");
}

TEST_CASE_FIXTURE(Rules, "broadcast") {
  Value *Row = val(blk(F32, {1, 16}));
  CHECK(check(Opcode::Broadcast, {blk(F32, {8, 16})}, {Row}) == "");
  CHECK(check(Opcode::Broadcast, {blk(F32, {1, 16})}, {Row}) == "");

  CHECK(check(Opcode::Broadcast, {blk(F32, {8, 32})}, {Row}) ==
        "'broadcast' cannot change dimension 1 from 16 to 32");
  CHECK(check(Opcode::Broadcast, {blk(F32, {8, 16})}, {val(blk(F32, {16}))}) ==
        "'broadcast' needs blocks of the same rank and element type, got <16 x "
        "f32> to <8 x 16 x f32>");
  CHECK(check(Opcode::Broadcast, {blk(I32, {8, 16})}, {Row}) ==
        "'broadcast' needs blocks of the same rank and element type, got <1 x "
        "16 x f32> to <8 x 16 x i32>");
  CHECK(check(Opcode::Broadcast, {blk(F32, {16})}, {val(F32)}) ==
        "'broadcast' needs blocks of the same rank and element type, got f32 to "
        "<16 x f32>");
}

TEST_CASE_FIXTURE(Rules, "reshape") {
  Value *V = val(blk(F32, {16}));
  CHECK(check(Opcode::Reshape, {blk(F32, {16})}, {val(blk(F32, {4, 4}))}) == "");
  CHECK(check(Opcode::Reshape, {blk(F32, {2, 8})}, {V},
              {unitA(AttrKey::AllowReorder)}) == "");

  CHECK(check(Opcode::Reshape, {blk(F32, {32})}, {V}) ==
        "'reshape' cannot change the number of elements, got <16 x f32> to <32 "
        "x f32>");
  CHECK(check(Opcode::Reshape, {blk(I32, {16})}, {V}) ==
        "'reshape' needs blocks of the same element type, got <16 x f32> to "
        "<16 x i32>");
  CHECK(check(Opcode::Reshape, {blk(F32, {1})}, {val(F32)}) ==
        "'reshape' needs blocks of the same element type, got f32 to <1 x f32>");
}

TEST_CASE_FIXTURE(Rules, "expand_dims") {
  Value *V = val(blk(F32, {16}));
  CHECK(check(Opcode::ExpandDims, {blk(F32, {1, 16})}, {V}, {axis(0)}) == "");
  CHECK(check(Opcode::ExpandDims, {blk(F32, {16, 1})}, {V}, {axis(1)}) == "");
  CHECK(check(Opcode::ExpandDims, {blk(F32, {1})}, {val(F32)}, {axis(0)}) == "");

  CHECK(check(Opcode::ExpandDims, {blk(F32, {16, 1})}, {V}, {axis(2)}) ==
        "'expand_dims' axis 2 is out of range for rank 2");
  CHECK(check(Opcode::ExpandDims, {blk(F32, {16, 1})}, {V}, {axis(-1)}) ==
        "'expand_dims' axis -1 is out of range for rank 2");
  CHECK(check(Opcode::ExpandDims, {blk(F32, {16, 1})}, {V}, {axis(0)}) ==
        "'expand_dims' result must be <1 x 16 x f32>, got <16 x 1 x f32>");
  CHECK(check(Opcode::ExpandDims, {blk(F32, {16, 1})}, {V}) ==
        "'expand_dims' requires attribute 'axis'");
  CHECK(check(Opcode::ExpandDims, {blk(F32, {1})}, {val(Void)}, {axis(0)}) ==
        "'expand_dims' expects a scalar or block operand, got void");
}

TEST_CASE_FIXTURE(Rules, "trans") {
  Value *M = val(blk(F32, {4, 8}));
  auto Order = [](llvm::ArrayRef<int64_t> O) -> AttrList {
    return {listA(AttrKey::Order, O)};
  };
  CHECK(check(Opcode::Trans, {blk(F32, {8, 4})}, {M}, Order({1, 0})) == "");
  CHECK(check(Opcode::Trans, {blk(F32, {16})}, {val(blk(F32, {16}))},
              Order({0})) == "");

  CHECK(check(Opcode::Trans, {blk(F32, {4, 4})}, {M}, Order({0, 0})) ==
        "'trans' order [0, 0] is not a permutation of the dimensions of <4 x 8 "
        "x f32>");
  CHECK(check(Opcode::Trans, {blk(F32, {8})}, {M}, Order({1})) ==
        "'trans' order [1] is not a permutation of the dimensions of <4 x 8 x "
        "f32>");
  CHECK(check(Opcode::Trans, {blk(F32, {4, 8})}, {M}, Order({0, 2})) ==
        "'trans' order [0, 2] is not a permutation of the dimensions of <4 x 8 "
        "x f32>");
  CHECK(check(Opcode::Trans, {blk(F32, {4, 8})}, {M}, Order({1, 0})) ==
        "'trans' result must be <8 x 4 x f32>, got <4 x 8 x f32>");
  CHECK(check(Opcode::Trans, {F32}, {val(F32)}, Order({0})) ==
        "'trans' operand must be a block, got f32");
  CHECK(check(Opcode::Trans, {blk(F32, {8, 4})}, {M}) ==
        "'trans' requires attribute 'order'");
}

TEST_CASE_FIXTURE(Rules, "join") {
  Value *X = val(F32), *V = val(blk(F32, {16}));
  CHECK(check(Opcode::Join, {blk(F32, {2})}, {X, X}) == "");
  CHECK(check(Opcode::Join, {blk(F32, {16, 2})}, {V, V}) == "");

  CHECK(check(Opcode::Join, {blk(F32, {2})}, {X, val(F16)}) ==
        "'join' operands must have the same type, got f32 and f16");
  CHECK(check(Opcode::Join, {blk(F32, {2, 16})}, {V, V}) ==
        "'join' result must be <16 x 2 x f32>, got <2 x 16 x f32>");
  CHECK(check(Opcode::Join, {blk(F32, {2})}, {val(Void), val(Void)}) ==
        "'join' expects scalar or block operands, got void");
}

TEST_CASE_FIXTURE(Rules, "split") {
  Type *V16 = blk(F32, {16});
  Value *Pairs = val(blk(F32, {16, 2}));
  CHECK(check(Opcode::Split, {V16, V16}, {Pairs}) == "");
  CHECK(check(Opcode::Split, {F32, F32}, {val(blk(F32, {2}))}) == "");

  CHECK(check(Opcode::Split, {F32, F32}, {val(V16)}) ==
        "'split' operand must be a block whose last dimension is 2, got <16 x f32>");
  CHECK(check(Opcode::Split, {F32, F32}, {val(F32)}) ==
        "'split' operand must be a block whose last dimension is 2, got f32");
  CHECK(check(Opcode::Split, {V16, blk(I32, {16})}, {Pairs}) ==
        "'split' result 1 must be <16 x f32>, got <16 x i32>");
  CHECK(check(Opcode::Split, {V16}, {Pairs}) == "'split' defines 2 results, got 1");
}

TEST_CASE_FIXTURE(Rules, "cat") {
  Value *V = val(blk(F32, {16})), *M = val(blk(F32, {4, 8}));
  CHECK(check(Opcode::Cat, {blk(F32, {32})}, {V, V}) == "");
  CHECK(check(Opcode::Cat, {blk(F32, {8, 8})}, {M, M}) == "");

  CHECK(check(Opcode::Cat, {blk(F32, {32})}, {V, val(blk(I32, {16}))}) ==
        "'cat' operands must have the same type, got <16 x f32> and <16 x i32>");
  CHECK(check(Opcode::Cat, {blk(F32, {2})}, {val(F32), val(F32)}) ==
        "'cat' operands must be blocks, got f32");
  CHECK(check(Opcode::Cat, {blk(F32, {16})}, {V, V}) ==
        "'cat' result must be <32 x f32>, got <16 x f32>");
}

TEST_CASE_FIXTURE(Rules, "dot") {
  Type *C = blk(F32, {16, 64});
  Value *A = val(blk(F16, {16, 32})), *B = val(blk(F16, {32, 64})), *Acc = val(C);
  CHECK(check(Opcode::Dot, {C}, {A, B, Acc}) == "");
  CHECK(check(Opcode::Dot, {blk(F32, {2, 16, 64})},
              {val(blk(F16, {2, 16, 32})), val(blk(F16, {2, 32, 64})),
               val(blk(F32, {2, 16, 64}))}) == "");
  CHECK(check(Opcode::Dot, {blk(I32, {16, 64})},
              {val(blk(I8, {16, 32})), val(blk(I8, {32, 64})),
               val(blk(I32, {16, 64}))}) == "");
  CHECK(check(Opcode::Dot, {C},
              {val(blk(E4M3, {16, 32})), val(blk(E5M2, {32, 64})), Acc}) == "");
  CHECK(check(Opcode::Dot, {C},
              {val(blk(F32, {16, 32})), val(blk(F32, {32, 64})), Acc},
              {enumA(AttrKey::Precision, unsigned(DotPrecision::TF32)),
               intA(AttrKey::MaxNumImpreciseAcc, 32)}) == "");

  CHECK(check(Opcode::Dot, {F32}, {val(F32), val(F32), val(F32)}) ==
        "'dot' operands must be blocks, got f32, f32 and f32");
  Value *V = val(blk(F32, {16}));
  CHECK(check(Opcode::Dot, {blk(F32, {16})}, {V, V, V}) ==
        "'dot' operands must all be 2-d (or 3-d, batched), got <16 x f32>, <16 "
        "x f32> and <16 x f32>");
  CHECK(check(Opcode::Dot, {C}, {A, A, Acc}) ==
        "'dot' shapes do not agree: <16 x 32 x f16> @ <16 x 32 x f16> + <16 x "
        "64 x f32>");
  CHECK(check(Opcode::Dot, {blk(F32, {2, 16, 64})},
              {val(blk(F16, {2, 16, 32})), val(blk(F16, {4, 32, 64})),
               val(blk(F32, {2, 16, 64}))}) ==
        "'dot' shapes do not agree: <2 x 16 x 32 x f16> @ <4 x 32 x 64 x f16> + "
        "<2 x 16 x 64 x f32>");
  CHECK(check(Opcode::Dot, {C}, {A, val(blk(F32, {32, 64})), Acc}) ==
        "'dot' needs float operands of one type (or two fp8 types) with a float "
        "accumulator, or i8 operands with an i32 accumulator; got f16, f32 and "
        "f32");
  CHECK(check(Opcode::Dot, {C},
              {val(blk(I8, {16, 32})), val(blk(I8, {32, 64})), Acc}) ==
        "'dot' needs float operands of one type (or two fp8 types) with a float "
        "accumulator, or i8 operands with an i32 accumulator; got i8, i8 and "
        "f32");
  CHECK(check(Opcode::Dot, {blk(F16, {16, 64})}, {A, B, Acc}) ==
        "'dot' result must be <16 x 64 x f32>, got <16 x 64 x f16>");
  CHECK(check(Opcode::Dot, {C}, {A, B, Acc}, {axis(0)}) ==
        "attribute 'axis' is not valid on 'dot'");
}

TEST_CASE_FIXTURE(Rules, "reduce") {
  Value *VI = val(blk(I32, {16})), *VF = val(blk(F32, {16})),
        *M = val(blk(F32, {4, 8}));
  CHECK(check(Opcode::Reduce, {I32}, {VI}, {axis(0), kind(CombineKind::Add)}) == "");
  CHECK(check(Opcode::Reduce, {blk(F32, {4})}, {M},
              {axis(1), kind(CombineKind::FMax)}) == "");
  // Whether @fn exists and fits is the verifier's business.
  CHECK(check(Opcode::Reduce, {F32, I32}, {VF, VI}, {axis(0), combine("fn")}) == "");

  AttrList Add = {axis(0), kind(CombineKind::Add)};
  CHECK(check(Opcode::Reduce, {}, {}, Add) == "'reduce' needs at least one operand");
  CHECK(check(Opcode::Reduce, {I32, I32}, {VI}, Add) ==
        "'reduce' defines one result per operand, got 2 results for 1 operand");
  CHECK(check(Opcode::Reduce, {I32}, {VI}, Add, {&B0}) ==
        "'reduce' takes no block operands");
  CHECK(check(Opcode::Reduce, {I32}, {VI}, {kind(CombineKind::Add)}) ==
        "'reduce' requires attribute 'axis'");
  CHECK(check(Opcode::Reduce, {I32}, {val(I32)}, Add) ==
        "'reduce' operands must be blocks, got i32");
  CHECK(check(Opcode::Reduce, {F32, I32}, {VF, val(blk(I32, {8}))},
              {axis(0), combine("fn")}) ==
        "'reduce' operands must have the same shape, got <16 x f32> and <8 x i32>");
  CHECK(check(Opcode::Reduce, {I32}, {VI}, {axis(1), kind(CombineKind::Add)}) ==
        "'reduce' axis 1 is out of range for rank 1");
  CHECK(check(Opcode::Reduce, {I32}, {VI},
              {axis(0), kind(CombineKind::Add), combine("fn")}) ==
        "'reduce' needs exactly one of 'kind' and 'combine'");
  CHECK(check(Opcode::Reduce, {I32}, {VI}, {axis(0)}) ==
        "'reduce' needs exactly one of 'kind' and 'combine'");
  CHECK(check(Opcode::Reduce, {F32, I32}, {VF, VI}, Add) ==
        "'reduce' with a built-in kind takes one operand");
  CHECK(check(Opcode::Reduce, {I32}, {VI}, {axis(0), kind(CombineKind::FAdd)}) ==
        "'reduce' kind 'fadd' needs float elements, got <16 x i32>");
  CHECK(check(Opcode::Reduce, {F32}, {VF}, {axis(0), kind(CombineKind::SMax)}) ==
        "'reduce' kind 'smax' needs integer elements, got <16 x f32>");
  CHECK(check(Opcode::Reduce, {blk(I32, {16})}, {VI}, Add) ==
        "'reduce' result must be i32, got <16 x i32>");
  CHECK(check(Opcode::Reduce, {F32, F32}, {VF, VI}, {axis(0), combine("fn")}) ==
        "'reduce' result 1 must be i32, got f32");
  CHECK(check(Opcode::Reduce, {I32}, {VI},
              {axis(0), kind(CombineKind::Add), unitA(AttrKey::Reverse)}) ==
        "attribute 'reverse' is not valid on 'reduce'");
}

TEST_CASE_FIXTURE(Rules, "scan") {
  Type *TI = blk(I32, {16}), *TF = blk(F32, {16});
  Value *VI = val(TI), *VF = val(TF);
  CHECK(check(Opcode::Scan, {TI}, {VI},
              {axis(0), kind(CombineKind::Add), unitA(AttrKey::Reverse)}) == "");
  CHECK(check(Opcode::Scan, {TF, TI}, {VF, VI}, {axis(0), combine("fn")}) == "");

  CHECK(check(Opcode::Scan, {I32}, {VI}, {axis(0), kind(CombineKind::Add)}) ==
        "'scan' result must be <16 x i32>, got i32");
  CHECK(check(Opcode::Scan, {TF}, {VF}, {axis(0), kind(CombineKind::And)}) ==
        "'scan' kind 'and' needs integer elements, got <16 x f32>");
  CHECK(check(Opcode::Scan, {TI}, {VI}, {axis(-1), kind(CombineKind::Add)}) ==
        "'scan' axis -1 is out of range for rank 1");
  CHECK(check(Opcode::Scan, {TI}, {VI},
              {axis(0), kind(CombineKind::Add), unitA(AttrKey::TieBreakLeft)}) ==
        "attribute 'tie_break_left' is not valid on 'scan'");
}

TEST_CASE_FIXTURE(Rules, "argmin and argmax") {
  Value *VF = val(blk(F32, {16}));
  CHECK(check(Opcode::ArgMax, {I32}, {VF}, {axis(0), unitA(AttrKey::TieBreakLeft)}) == "");
  CHECK(check(Opcode::ArgMin, {blk(I32, {4})}, {val(blk(F32, {4, 8}))}, {axis(1)}) == "");
  CHECK(check(Opcode::ArgMin, {I32}, {val(blk(I8, {16}))}, {axis(0)}) == "");

  CHECK(check(Opcode::ArgMin, {I32}, {val(blk(Ptr, {16}))}, {axis(0)}) ==
        "'argmin' operand must be a block of integers or floats, got <16 x ptr<f32>>");
  CHECK(check(Opcode::ArgMin, {I32}, {val(F32)}, {axis(0)}) ==
        "'argmin' operand must be a block of integers or floats, got f32");
  CHECK(check(Opcode::ArgMax, {F32}, {VF}, {axis(0)}) ==
        "'argmax' result must be i32, got f32");
  CHECK(check(Opcode::ArgMax, {I32}, {VF}, {axis(1)}) ==
        "'argmax' axis 1 is out of range for rank 1");
  CHECK(check(Opcode::ArgMax, {I32}, {VF}) == "'argmax' requires attribute 'axis'");
}

TEST_CASE_FIXTURE(Rules, "get_program_id and get_num_programs") {
  CHECK(check(Opcode::GetProgramId, {I32}, {}, {axis(2)}) == "");
  CHECK(check(Opcode::GetNumPrograms, {I32}, {}, {axis(0)}) == "");

  CHECK(check(Opcode::GetProgramId, {I32}, {}, {axis(3)}) ==
        "'get_program_id' axis must be 0, 1 or 2, got 3");
  CHECK(check(Opcode::GetNumPrograms, {I32}, {}, {axis(-1)}) ==
        "'get_num_programs' axis must be 0, 1 or 2, got -1");
  CHECK(check(Opcode::GetNumPrograms, {I64}, {}, {axis(0)}) ==
        "'get_num_programs' result must be i32, got i64");
  CHECK(check(Opcode::GetProgramId, {I32}, {}) ==
        "'get_program_id' requires attribute 'axis'");
  CHECK(check(Opcode::GetProgramId, {I32}, {val(I32)}, {axis(0)}) ==
        "'get_program_id' expects 0 operands, got 1");
}

TEST_CASE_FIXTURE(Rules, "call") {
  // Signatures are the verifier's business; the rules see only the shape.
  CHECK(check(Opcode::Call, {F32}, {val(F32), val(I32)},
              {symA(AttrKey::Callee, "g")}) == "");
  CHECK(check(Opcode::Call, {}, {}, {symA(AttrKey::Callee, "h")}) == "");

  CHECK(check(Opcode::Call, {}, {}) == "'call' requires attribute 'callee'");
  CHECK(check(Opcode::Call, {}, {}, {strA(AttrKey::Callee, "g")}) ==
        "attribute 'callee' has a value of the wrong kind");
  CHECK(check(Opcode::Call, {}, {}, {symA(AttrKey::Callee, "g")}, {&B0}) ==
        "'call' takes no block operands");
}

TEST_CASE_FIXTURE(Rules, "ret") {
  CHECK(check(Opcode::Ret, {}, {}) == "");
  CHECK(check(Opcode::Ret, {}, {val(I32), val(blk(F32, {16}))}) == "");

  CHECK(check(Opcode::Ret, {I32}, {}) ==
        "'ret' defines no results and takes no block operands");
  CHECK(check(Opcode::Ret, {}, {}, {}, {&B0}) ==
        "'ret' defines no results and takes no block operands");
  CHECK(check(Opcode::Ret, {}, {}, {axis(0)}) == "attribute 'axis' is not valid on 'ret'");
}

TEST_CASE_FIXTURE(Rules, "br") {
  CHECK(check(Opcode::Br, {}, {}, {}, {&B0}) == "");

  CHECK(check(Opcode::Br, {}, {}, {}, {&B0, &B1}) ==
        "'br' expects 1 block operand, got 2");
  CHECK(check(Opcode::Br, {}, {val(I1)}, {}, {&B0}) == "'br' expects 0 operands, got 1");
  CHECK(check(Opcode::Br, {I32}, {}, {}, {&B0}) == "'br' defines 0 results, got 1");
}

TEST_CASE_FIXTURE(Rules, "cond_br") {
  CHECK(check(Opcode::CondBr, {}, {val(I1)}, {}, {&B0, &B1}) == "");
  CHECK(check(Opcode::CondBr, {}, {val(I1)}, {}, {&B0, &B0}) == "");

  CHECK(check(Opcode::CondBr, {}, {val(I32)}, {}, {&B0, &B1}) ==
        "'cond_br' condition must be i1, got i32");
  CHECK(check(Opcode::CondBr, {}, {val(blk(I1, {16}))}, {}, {&B0, &B1}) ==
        "'cond_br' condition must be i1, got <16 x i1>");
  CHECK(check(Opcode::CondBr, {}, {val(I1)}, {}, {&B0}) ==
        "'cond_br' expects 2 block operands, got 1");
}

TEST_CASE_FIXTURE(Rules, "phi") {
  Value *A = val(I32);
  CHECK(check(Opcode::Phi, {I32}, {A, A}, {}, {&B0, &B1}) == "");
  CHECK(check(Opcode::Phi, {I32}, {}) == "");

  CHECK(check(Opcode::Phi, {}, {}) == "'phi' defines 1 result, got 0");
  CHECK(check(Opcode::Phi, {I32}, {A}) == "'phi' needs one block per incoming value");
  CHECK(check(Opcode::Phi, {I32}, {A, val(I64)}, {}, {&B0, &B1}) ==
        "'phi' incoming value 1 has type i64, expected i32");
  CHECK(check(Opcode::Phi, {Void}, {}) ==
        "'phi' expects a scalar, block, memdesc or tensordesc type, got void");
  CHECK(check(Opcode::Phi, {I32}, {}, {axis(0)}) ==
        "attribute 'axis' is not valid on 'phi'");
}

TEST_CASE_FIXTURE(Rules, "barrier") {
  CHECK(check(Opcode::Barrier, {}, {}) == "");
  CHECK(check(Opcode::Barrier, {}, {val(I32)}) == "'barrier' expects 0 operands, got 1");
  CHECK(check(Opcode::Barrier, {I32}, {}) == "'barrier' defines 0 results, got 1");
}

TEST_CASE_FIXTURE(Rules, "print") {
  CHECK(check(Opcode::Print, {}, {val(I32), val(blk(F32, {16})), val(Ptr)},
              {strA(AttrKey::Prefix, "x: "), unitA(AttrKey::Hex)}) == "");
  CHECK(check(Opcode::Print, {}, {}) == "");

  CHECK(check(Opcode::Print, {I32}, {}) == "'print' defines 0 results, got 1");
  CHECK(check(Opcode::Print, {}, {val(Void)}) ==
        "'print' expects scalar or block operands, got void");
  CHECK(check(Opcode::Print, {}, {}, {strA(AttrKey::Message, "m")}) ==
        "attribute 'message' is not valid on 'print'");
}

TEST_CASE_FIXTURE(Rules, "assert") {
  CHECK(check(Opcode::Assert, {}, {val(I1)}, {strA(AttrKey::Message, "m")}) == "");
  CHECK(check(Opcode::Assert, {}, {val(blk(I1, {16}))}) == "");

  CHECK(check(Opcode::Assert, {}, {val(I32)}) ==
        "'assert' expects an i1 or i1 block condition, got i32");
  CHECK(check(Opcode::Assert, {}, {}) == "'assert' expects 1 operand, got 0");
}

TEST_CASE_FIXTURE(Rules, "extern_elementwise") {
  Attribute Sym = strA(AttrKey::Symbol, "__nv_powf");
  Value *X = val(F32);
  CHECK(check(Opcode::ExternElementwise, {F32}, {X, X}, {Sym, unitA(AttrKey::Pure)}) == "");
  CHECK(check(Opcode::ExternElementwise, {blk(F32, {16})},
              {val(blk(F32, {16})), val(blk(I32, {16}))}, {Sym}) == "");
  CHECK(check(Opcode::ExternElementwise, {F32}, {}, {Sym}) == "");

  CHECK(check(Opcode::ExternElementwise, {F32}, {X}) ==
        "'extern_elementwise' requires attribute 'symbol'");
  CHECK(check(Opcode::ExternElementwise, {Ptr}, {val(Ptr)}, {Sym}) ==
        "'extern_elementwise' expects an integer or float result, got ptr<f32>");
  CHECK(check(Opcode::ExternElementwise, {F32}, {val(Ptr)}, {Sym}) ==
        "'extern_elementwise' expects integer or float operands, got ptr<f32>");
  CHECK(check(Opcode::ExternElementwise, {blk(F32, {16})}, {X}, {Sym}) ==
        "'extern_elementwise' operands and result must have the same shape, got "
        "f32 and <16 x f32>");
  CHECK(check(Opcode::ExternElementwise, {}, {X}, {Sym}) ==
        "'extern_elementwise' defines 1 result, got 0");
}

TEST_CASE_FIXTURE(Rules, "hints") {
  auto Values = [](llvm::ArrayRef<int64_t> V) -> AttrList {
    return {listA(AttrKey::Values, V)};
  };
  Type *VI = blk(I32, {16}), *MP = blk(Ptr, {4, 8});
  Value *A = val(I32);
  CHECK(check(Opcode::MultipleOf, {VI}, {val(VI)}, Values({16})) == "");
  CHECK(check(Opcode::MaxContiguous, {MP}, {val(MP)}, Values({1, 8})) == "");
  CHECK(check(Opcode::MaxConstancy, {I32}, {A}, Values({4})) == "");

  CHECK(check(Opcode::MaxContiguous, {MP}, {val(MP)}, Values({8})) ==
        "'max_contiguous' needs 2 values (one per dimension), got 1");
  CHECK(check(Opcode::MultipleOf, {I32}, {A}, Values({16, 16})) ==
        "'multiple_of' needs 1 value (one per dimension), got 2");
  CHECK(check(Opcode::MultipleOf, {I32}, {A}, Values({0})) ==
        "'multiple_of' values must be positive, got 0");
  CHECK(check(Opcode::MaxConstancy, {F32}, {val(F32)}, Values({1})) ==
        "'max_constancy' expects an integer or pointer operand, got f32");
  CHECK(check(Opcode::MultipleOf, {I64}, {A}, Values({16})) ==
        "'multiple_of' result must be i32, got i64");
  CHECK(check(Opcode::MultipleOf, {I32}, {A}) ==
        "'multiple_of' requires attribute 'values'");
}

TEST_CASE_FIXTURE(Rules, "typed builder methods throw the rules' messages") {
  Builder.setInsertPoint(Entry);
  Builder.setLoc({Ctx.intern("k.py"), 3, 7});
  Value *A = val(I32), *X = val(F32), *M = val(blk(F32, {4, 8}));
  try {
    Builder.createBinary(Opcode::Add, A, X);
    FAIL("createBinary accepted mismatched operands");
  } catch (const CompileError &E) {
    CHECK(E.describe() == "k.py:3:7: 'add' operands must have the same type, got "
                          "i32 and f32");
  }
  CHECK_THROWS_WITH_AS(Builder.createICmp(ICmpPredicate::SLT, X, X),
                       "'icmp' expects integer or pointer operands, got f32",
                       CompileError);
  CHECK_THROWS_WITH_AS(Builder.createCast(Opcode::Trunc, A, I64),
                       "'trunc' casts an integer to a narrower integer, not i32 "
                       "to i64",
                       CompileError);
  CHECK_THROWS_WITH_AS(Builder.createTrans(M, {0, 0}),
                       "'trans' order [0, 0] is not a permutation of the "
                       "dimensions of <4 x 8 x f32>",
                       CompileError);
  CHECK_THROWS_WITH_AS(Builder.createProgramId(3),
                       "'get_program_id' axis must be 0, 1 or 2, got 3",
                       CompileError);
  CHECK_THROWS_WITH_AS(Builder.createReduce(M, 0, CombineKind::Add),
                       "'reduce' kind 'add' needs integer elements, got <4 x 8 x f32>",
                       CompileError);
  size_t Before = Entry->size();
  CHECK_THROWS_AS(Builder.createSelect(A, X, X), CompileError);
  CHECK(Entry->size() == Before); // nothing is inserted on failure
  Value *Ok = Builder.createBinary(Opcode::Add, A, A);
  CHECK(Ok->getDefiningInstruction()->getParent() == Entry);
}

TEST_CASE_FIXTURE(Rules, "the rules never crash on malformed instructions") {
  // Random opcodes, operand and result types, attributes and block operands:
  // the parser hands checkTypes whatever the input says.
  Type *Types[] = {I1,         I8,
                   I32,        F16,
                   F32,        Void,
                   Ptr,        PointerType::get(Ptr),
                   blk(F32, {16}), blk(I32, {16}),
                   blk(I1, {16}),  blk(Ptr, {16}),
                   blk(F32, {4, 2}), blk(I32, {2, 2, 2}),
                   FunctionType::get(Ctx, {I32}, {I32})};
  AttrList Attrs[] = {{},
                      {axis(0)},
                      {axis(1)},
                      {axis(0), kind(CombineKind::Add)},
                      {axis(0), kind(CombineKind::FAdd)},
                      {axis(0), combine("fn")},
                      {intA(AttrKey::Start, 0), intA(AttrKey::End, 16)},
                      {listA(AttrKey::Order, {1, 0})},
                      {listA(AttrKey::Order, {})},
                      {listA(AttrKey::Values, {4, 4})},
                      {intA(AttrKey::Value, 1)},
                      {fltA(AttrKey::Value, 1.0)},
                      {ipred(ICmpPredicate::EQ)},
                      {fpred(FCmpPredicate::OEQ)},
                      {rmw(AtomicKind::Add)},
                      {rmw(AtomicKind::Xchg)},
                      {symA(AttrKey::Callee, "g")},
                      {strA(AttrKey::Symbol, "s")}};
  std::mt19937 Rng(7);
  auto Pick = [&](auto &Array) -> auto & {
    return Array[Rng() % std::size(Array)];
  };
  unsigned Passed = 0;
  for (unsigned Round = 0; Round < 100000; ++Round) {
    Opcode Op = Opcode(Rng() % getNumOpcodes());
    llvm::SmallVector<Value *, 4> Ops;
    llvm::SmallVector<Type *, 3> Results;
    llvm::SmallVector<BasicBlock *, 2> Blocks;
    for (unsigned I = 0, N = Rng() % 5; I < N; ++I)
      Ops.push_back(val(Pick(Types)));
    for (unsigned I = 0, N = Rng() % 3; I < N; ++I)
      Results.push_back(Pick(Types));
    for (unsigned I = 0, N = Rng() % 3; I < N; ++I)
      Blocks.push_back(I ? &B1 : &B0);
    Instruction *I = Instruction::create(Ctx, Op, Results, Ops, Pick(Attrs), Blocks);
    Passed += I->checkTypes().empty();
    delete I;
  }
  // Some random instructions are valid; most are not.
  CHECK(Passed > 0);
  CHECK(Passed < 50000);
}
