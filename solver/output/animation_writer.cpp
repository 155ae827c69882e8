// The animation writer, from the module that holds VTK.
#include "animation_writer.h"

#include "solver/core/modules.h"

namespace lodestone {

std::unique_ptr<AnimationWriter> openAnimation(const std::filesystem::path& resultsFolder,
                                               std::vector<DrawnGraphic> graphics, AnimationOptions options) {
  static OpenAnimation* const open =
      moduleFunction<OpenAnimation>(kAnimationModule, kOpenAnimation, "the VTK writer of the animation");
  return std::unique_ptr<AnimationWriter>(open(resultsFolder, graphics, options));
}

}  // namespace lodestone
