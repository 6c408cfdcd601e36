// The entry point of the benchmark's clang: what LLVM's CMake generates
// from llvm-driver-template.cpp.in for a tool built outside the
// multi-call llvm-driver.  Written here; clang_main is in the driver
// sources of the llvm-toolchain-19 source package.

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/LLVMDriver.h"

int clang_main(int argc, char **argv, const llvm::ToolContext &context);

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  return clang_main(argc, argv, {argv[0], nullptr, false});
}
