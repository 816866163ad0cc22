// WebP (lossy and lossless) through libwebp, decoded straight into RGB.
#include <webp/decode.h>

#include "decode.h"

namespace onnxscript::eval::image {

RgbImage decode_webp(std::span<const uint8_t> data) {
  int width = 0, height = 0;
  if (!WebPGetInfo(data.data(), data.size(), &width, &height))
    throw DecodeError("the WebP header is invalid");
  RgbImage image;
  allocate(image, width, height);
  if (!WebPDecodeRGBInto(data.data(), data.size(), image.pixels.data(), image.pixels.size(),
                         width * 3))
    throw DecodeError("the WebP data is corrupt or truncated");
  return image;
}

}  // namespace onnxscript::eval::image
