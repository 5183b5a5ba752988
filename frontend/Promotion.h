//===- Promotion.h - Type rules of the kernel language ------------*- C++ -*-===//
//
// The pure type rules of Triton 3.6, with no IR involved: which type the
// operands of an operator are converted to, what the result type is, how
// shapes broadcast, which literals fit. The Semantic layer asks these before
// it emits anything; the interpreter runs every operation through the
// Semantic itself, so both agree on every result type and error message.
//
// The rules, in Triton's order:
//  * A Python literal is *weak*: against a value of the same or a higher kind
//    (bool < integer < float) it takes the value's type, as in NumPy 2
//    (`x_fp16 * 2.0` stays fp16, `x_int8 + 1` stays int8). Comparisons are
//    the exception: Triton turns their literal into a value first, so
//    `x_int8 < 1` compares in int32.
//  * Otherwise fp64 > fp32 > fp16 > bf16 (fp16 with bf16 gives fp16; bf16
//    with anything but bf16 gives fp32); two different fp8 types give fp16;
//    `/` and `%` on fp16 or bf16 compute in fp32.
//  * Integers follow C's usual arithmetic conversions; int1 is unsigned.
//    `/`, `//` and `%` on integers of different signedness are an error.
//  * Shapes broadcast NumPy-style after the lower rank is padded with
//    leading 1s.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_PROMOTION_H
#define TRITIUM_FRONTEND_PROMOTION_H

#include "frontend/Semantic.h"

#include <optional>
#include <string>

namespace tritium {

/// What a type rule answers: a type, or the reason there is none (a message
/// in the user's terms, thrown as a CompileError by the Semantic layer).
struct TypeResult {
  DType *Ty = nullptr;
  std::string Error;

  static TypeResult ok(DType *T) { return {T, ""}; }
  static TypeResult fail(std::string Msg) { return {nullptr, std::move(Msg)}; }
  explicit operator bool() const { return Ty != nullptr; }
};

/// The type of tl.make_tensor_descriptor(base, shape, strides, block_shape)
/// with \p NumShape shapes and \p NumStrides strides, or Triton's error:
/// a scalar pointer to a number type, 1 to 5 dimensions alike in all
/// three, power-of-two block dimensions, at least 16 bytes in the last one
/// (TMA's least), and a last stride known to be 1 (\p LastStride: its
/// value when it is a literal or constant).
TypeResult typeTensorDescriptor(DType *Base, size_t NumShape, size_t NumStrides,
                                llvm::ArrayRef<int64_t> Block,
                                std::optional<int64_t> LastStride);
/// The type of tl.make_block_ptr(base, shape, strides, offsets,
/// block_shape, order) (a tensordesc: a block pointer is a descriptor with
/// int64 shapes whose accesses check the dimensions they name), or
/// Triton's error: a scalar pointer to numbers or booleans, one length for
/// all five, power-of-two block dimensions, \p Order a permutation.
TypeResult typeBlockPointer(DType *Base, size_t NumShape, size_t NumStrides, size_t NumOffsets,
                            llvm::ArrayRef<int64_t> Block, llvm::ArrayRef<int64_t> Order);
/// Why desc.load / desc.store (\p Value: the stored value's type) with
/// \p NumOffsets offsets is wrong, or "".
std::string checkDescriptorAccess(DType *Desc, size_t NumOffsets, DType *Value);
/// Why a block pointer's load or store with boundary_check \p Boundary and
/// padding_option \p Padding ("", "zero" or "nan"; a store's is "") is
/// wrong, or "".
std::string checkBlockAccess(DType *Desc, llvm::ArrayRef<int64_t> Boundary,
                             llvm::StringRef Padding);

/// The Python spelling of an operator, as error messages quote it ("+",
/// "//", "<<"); builtins that are functions give their name ("fdiv").
llvm::StringRef getOpSymbol(Semantic::BinOp Op);
llvm::StringRef getOpSymbol(Semantic::CmpOp Op);

/// C's usual arithmetic conversions of two integer types: the same
/// signedness takes the wider; otherwise the unsigned one if it is at least
/// as wide, else the signed one.
DType *integerPromote(DType *A, DType *B);

/// The scalar type an arithmetic operator computes in (Triton's
/// computation_type_impl). \p ALiteral/\p BLiteral mark weak Python literals;
/// \p DivOrMod selects the rules of `/`, `//` and `%`. \p Symbol names the
/// operator in messages. A and B are scalar ints or floats.
TypeResult computationType(DType *A, bool ALiteral, DType *B, bool BLiteral,
                           bool DivOrMod, llvm::StringRef Symbol);

/// How a binary operator types its operands and result.
struct BinaryTyping {
  std::string Error;
  /// The type weak literals are checked against (negative with unsigned, out
  /// of range); null when no arithmetic promotion happens (pointers).
  DType *CompTy = nullptr;
  /// Scalar types the left and right operands are converted to; null keeps
  /// the operand's own type (a literal then takes its literal type).
  DType *LhsTy = nullptr, *RhsTy = nullptr;
  /// Scalar type of the result.
  DType *ResultTy = nullptr;
};

/// The typing of `L op R` for scalar types \p L and \p R (element types of
/// blocks; literals give their literal type and set the flag).
BinaryTyping typeBinary(Semantic::BinOp Op, DType *L, bool LLiteral, DType *R,
                        bool RLiteral);
/// The typing of a comparison (both sides strong; the result is int1).
BinaryTyping typeCompare(Semantic::CmpOp Op, DType *L, DType *R);
/// The typing of tl.minimum / tl.maximum.
BinaryTyping typeMinMax(bool IsMax, DType *L, bool LLiteral, DType *R,
                        bool RLiteral);

/// The typing of tl.where's two values: arithmetic promotion, or two
/// pointers of one type.
BinaryTyping typeWhere(DType *X, bool XLiteral, DType *Y, bool YLiteral);

/// Whether the integer or bool literal \p Lit lies in the range of the
/// integer type \p T (false for float literals).
bool intLiteralFits(const Operand &Lit, DType *T);

/// Why the weak literal \p Lit cannot be converted to the integer type \p T
/// that its operation computes in, or "" if it can (Triton rejects negative
/// literals with unsigned types and literals outside the type's range).
std::string checkWeakLiteral(const Operand &Lit, DType *T);

/// The common shape of two shapes, padding the lower rank with leading 1s;
/// nullopt if some dimension differs and neither is 1. Scalars have the
/// empty shape.
std::optional<Shape> broadcastShapes(llvm::ArrayRef<int64_t> A,
                                     llvm::ArrayRef<int64_t> B);
/// Why \p Dims cannot be the shape of a block (Triton's messages: every
/// dimension a power of 2, at most 2^20 elements), or "".
std::string checkBlockShape(llvm::ArrayRef<int64_t> Dims);
/// "[128, 64]"; "[]" for a scalar.
std::string formatShape(llvm::ArrayRef<int64_t> Dims);

/// Why \p Lit cannot be a constant (tl.full, constant) of the scalar type
/// \p Ty, or "" (Triton rejects floats and out-of-range values for
/// integer types).
std::string checkConstant(const Operand &Lit, DType *Ty);
/// The message for a value (of type \p ValueTy) where a constant is due.
std::string notAConstant(DType *ValueTy);
/// Why tl.arange(\p Start, \p End) is wrong, or "".
std::string checkArange(int64_t Start, int64_t End);
/// Why \p Axis is not an axis of tl.program_id / tl.num_programs (\p What).
std::string checkProgramAxis(llvm::StringRef What, int64_t Axis);
/// Why the cache modifier and eviction policy of a load (\p IsLoad) or a
/// store are not Triton's spellings, or "".
std::string checkMemoryHints(llvm::StringRef Cache, llvm::StringRef Evict, bool IsLoad);
/// Why an atomic's memory semantic or scope is not Triton's spelling, or "".
std::string checkAtomicOrder(llvm::StringRef Sem, llvm::StringRef Scope);
/// Why \p S cannot be cast (or bitcast) to the scalar type \p To, with or
/// without an fp_downcast_rounding, or "".
std::string checkCast(DType *S, DType *To, bool Rounding, bool Bitcast);

/// The result type of tl.dot(\p A, \p B, acc) (\p Acc: the accumulator's
/// type, or null), with Triton's operand, shape and option rules.
TypeResult typeDot(DType *A, DType *B, DType *Acc, llvm::StringRef InputPrecision,
                   int64_t MaxNumImpreciseAcc, DType *OutDType);

/// The shape rules of tl.broadcast and binary operators (\p What names the
/// operation), tl.broadcast_to, tl.reshape (to () for a one-element block),
/// an axis of a rank-\p Rank value, tl.permute, tl.join, tl.split and
/// tl.cat: why the operation is wrong, or "".
std::string checkCommonShape(llvm::ArrayRef<int64_t> A, llvm::ArrayRef<int64_t> B,
                             llvm::StringRef What);
std::string checkBroadcastTo(llvm::ArrayRef<int64_t> Src, bool SrcIsBlock,
                             llvm::ArrayRef<int64_t> Dims);
std::string checkReshape(DType *X, llvm::ArrayRef<int64_t> Dims);
std::string checkAxis(int64_t Axis, int64_t Rank);
std::string checkPermute(DType *X, llvm::ArrayRef<int64_t> Dims);
std::string checkJoin(DType *X, DType *Y);
std::string checkSplit(DType *X);
std::string checkCat(DType *A, DType *B);
/// tl.gather(src, index, axis) (Triton's messages); \p Axis may be negative.
std::string checkGather(DType *Src, DType *Index, int64_t Axis);

/// The rules of tl.load, tl.store, the atomic read-modify-writes and
/// atomic_cas (operands: their types, a literal's own type, null where
/// absent): why the access is wrong, or "".
std::string checkLoad(DType *Ptr, DType *Mask, DType *Other);
std::string checkStore(DType *Ptr, DType *Value, DType *Mask);
std::string checkAtomicRMW(llvm::StringRef Op, DType *Ptr, DType *Value, DType *Mask,
                           llvm::StringRef Sem, llvm::StringRef Scope);
std::string checkAtomicCAS(DType *Ptr, DType *Cmp, DType *Value, llvm::StringRef Sem,
                           llvm::StringRef Scope);

/// Why the inputs (their types) of the reduction or scan \p What are wrong:
/// none, a scalar, shapes that differ.
std::string checkReductionInputs(llvm::ArrayRef<DType *> Xs, llvm::StringRef What);
/// The element type a built-in reduction (\p Kind: sum, max, min, xor_sum,
/// and, or, prod, argmax, argmin) or scan (\p Scan: sum, prod) of \p X
/// computes in, with \p AccDType (or null) and Triton's widening.
TypeResult typeReduction(llvm::StringRef Kind, bool Scan, DType *X, DType *AccDType);

/// The result type of a unary operator or math function on the scalar type
/// \p S; the types fma and clamp (\p XL etc.: literal operands) compute in.
TypeResult typeUnary(Semantic::UnaryOp Op, DType *S);
TypeResult typeFma(DType *A, DType *B, DType *C);
TypeResult typeClamp(DType *X, bool XL, DType *Lo, bool LoL, DType *Hi, bool HiL);

/// Why the hint \p Name (multiple_of, max_contiguous, max_constancy) of a
/// value of type \p X with \p Values is wrong, or "".
std::string checkHint(llvm::StringRef Name, DType *X, llvm::ArrayRef<int64_t> Values);

/// Why operands of type \p T cannot be \p What ("descriptor offsets"...):
/// they must be integers.
std::string checkIntegers(llvm::StringRef What, DType *T);
/// Why tl.extern_elementwise(\p Symbol) of operands of types \p Args
/// returning \p Result is wrong, or "".
std::string checkExternElementwise(llvm::StringRef Symbol, llvm::ArrayRef<DType *> Args,
                                   DType *Result);
/// The message for tl.full of a block value (of type \p Block).
std::string notAScalarFill(DType *Block);

/// Wraps a possibly negative \p Axis of a rank-\p Rank value into
/// [0, Rank), or nullopt if it is outside [-Rank, Rank).
std::optional<int64_t> wrapAxis(int64_t Axis, int64_t Rank);

} // namespace tritium

#endif // TRITIUM_FRONTEND_PROMOTION_H
