//===- GPUDriver.cpp - What a launch needs of a GPU driver ----------------===//

#include "runtime/GPUDriver.h"

namespace tritium {
namespace gpu {

DriverError::DriverError(std::string API, int Code, std::string Name, std::string Description,
                         std::string Action)
    : std::runtime_error(
          // A driver error reads "NAME: description (while action)"; not
          // being able to use the driver at all (code -1) is the reason alone.
          Code < 0 ? Description
                   : (Name.empty() ? API + " error " + std::to_string(Code) : Name) +
                         (Description.empty() ? "" : ": " + Description) +
                         (Action.empty() ? "" : " (while " + Action + ")")),
      API(std::move(API)), Code(Code), Name(std::move(Name)), Description(std::move(Description)),
      Action(std::move(Action)) {}

OutOfResources::OutOfResources(std::string Resource, uint64_t Required, uint64_t Limit,
                               const std::string &Kernel)
    : std::runtime_error("out of resource: " + Resource + ", Required: " +
                         std::to_string(Required) + ", Hardware limit: " +
                         std::to_string(Limit) + " (kernel '" + Kernel + "')"),
      Resource(std::move(Resource)), Required(Required), Limit(Limit) {}

Driver::~Driver() = default;

} // namespace gpu
} // namespace tritium
