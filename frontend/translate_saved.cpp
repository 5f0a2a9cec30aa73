// translateCuda() in a build without libclang (the GPU machine has none): the translation
// is not made here but read from the folder $TILESCOPE_TRANSLATIONS, where a machine with
// libclang saved it (frontend/translation_file.hpp). Every other step, the module's build
// by this machine's compiler included, is the same as with libclang.
#include "frontend/translate.hpp"
#include "frontend/translation_file.hpp"

namespace ts::student {

Translation translateCuda(const std::string& source, const std::string& fileName)
{
    Translation t;
    const std::string dir = savedTranslationsDir();
    if (dir.empty()) {
        t.errors.push_back(Diagnostic{0, 0, "this build of TileScope has no libclang to translate a kernel file, and "
                                            "TILESCOPE_TRANSLATIONS names no folder of saved translations (write one with "
                                            "`tilescope-cli translate --kernel-file FILE --out DIR` on a machine with libclang)"});
        return t;
    }
    std::string error;
    if (std::optional<Translation> saved = loadTranslation(source, dir, error)) return *saved;
    if (error.empty())
        error = "this build of TileScope has no libclang, and " + dir + " holds no saved translation of " + fileName +
                " as it is now (translate it again with `tilescope-cli translate` on a machine with libclang)";
    t.errors.push_back(Diagnostic{0, 0, error});
    return t;
}

}  // namespace ts::student
