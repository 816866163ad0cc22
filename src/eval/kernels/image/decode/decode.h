#pragma once
// Image decoders for ImageDecoder (kernels/image/image_decoder.cc), one file
// per format. Each turns a whole encoded file into 8-bit RGB rows or throws
// DecodeError with a reason; none of them writes to stderr or aborts on
// corrupt input. JPEG, PNG, TIFF, WebP and JPEG 2000 go through Debian's
// libraries (libjpeg-turbo, libpng, libtiff, libwebp, OpenJPEG); BMP and PNM
// are read here.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace onnxscript::eval::image {

/// A decoded image: height * width pixels, row-major, 3 bytes (R, G, B) each.
struct RgbImage {
  int64_t height = 0;
  int64_t width = 0;
  std::vector<uint8_t> pixels;
};

/// Why a stream could not be decoded (the format's name is added by the caller).
struct DecodeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The largest image accepted, in pixels: a corrupt header cannot make a
/// decoder allocate more than 3 * 2^28 bytes (768 MiB).
inline constexpr int64_t kMaxPixels = int64_t{1} << 28;

/// Throws unless `width` x `height` is a usable size (both positive, at most
/// kMaxPixels in all), and sizes `image` for it.
inline void allocate(RgbImage& image, int64_t width, int64_t height) {
  if (width <= 0 || height <= 0)
    throw DecodeError("the image size " + std::to_string(width) + "x" + std::to_string(height) +
                      " is empty or negative");
  if (width > kMaxPixels / height)
    throw DecodeError("the image size " + std::to_string(width) + "x" + std::to_string(height) +
                      " is larger than the 2^28 pixels supported");
  image.width = width;
  image.height = height;
  image.pixels.assign(static_cast<size_t>(width * height * 3), 0);
}

/// The decoders. Each expects the stream to start with its format's signature.
RgbImage decode_jpeg(std::span<const uint8_t> data);
RgbImage decode_png(std::span<const uint8_t> data);
RgbImage decode_tiff(std::span<const uint8_t> data);
RgbImage decode_webp(std::span<const uint8_t> data);
RgbImage decode_jpeg2000(std::span<const uint8_t> data);
RgbImage decode_bmp(std::span<const uint8_t> data);
RgbImage decode_pnm(std::span<const uint8_t> data);

}  // namespace onnxscript::eval::image
