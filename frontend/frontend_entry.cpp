// The one symbol libtilescope-frontend.so exports (frontend/frontend_abi.hpp): the table of
// libclang's front-end functions. Everything else in the library is hidden (its visibility
// and its version script), so its translateCuda() never meets the loader's function of the
// same name in an executable that exports its symbols (ENABLE_EXPORTS).
#include "frontend/frontend_abi.hpp"

namespace {

const ts::student::frontend::Table kTable = {
    ts::student::frontend::kInterfaceVersion,
    ts::student::frontend::kTranslationSize,
    ts::student::frontend::kDiagnosticSize,
    ts::student::frontend::kScanLimitsSize,
    &ts::student::translateCuda,
    &ts::student::scanKernelFile,
    &ts::student::allowedFunctions,
    &ts::student::unsupportedName,
};

}  // namespace

/// The front end's table, for the loader (frontend/frontend_loader.cpp) to check and call.
extern "C" __attribute__((visibility("default"))) const ts::student::frontend::Table* tilescope_frontend_table_v1()
{
    return &kTable;
}
