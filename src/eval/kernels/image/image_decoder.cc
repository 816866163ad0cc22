// ImageDecoder (20): decodes one encoded image (a 1-D uint8 tensor holding
// the whole file) into a uint8 tensor [H, W, C]. The format is recognised
// by its signature: JPEG, PNG, TIFF, WebP, JPEG 2000 (JP2 or a J2K
// codestream), BMP and PNM (P1-P6); the decoders are in decode/.
// pixel_format RGB (C = 3, the default), BGR (C = 3, channels reversed) or
// Grayscale (C = 1): the ITU-R BT.601 luma of the RGB pixel,
//   Y = 0.299 R + 0.587 G + 0.114 B,
// in 16-bit fixed point rounded to nearest, as PIL's convert("L") computes
// it (the ONNX test data's expected grayscale image agrees exactly).
// An empty, unrecognised, corrupt or truncated stream is a KernelError that
// names the format and the decoder's reason.
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "eval/kernels/image/decode/decode.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

struct ImageFormat {
  const char* name;
  image::RgbImage (*decode)(std::span<const uint8_t>);
};

/// The format whose signature `data` starts with, or nullptr.
const ImageFormat* image_format_of(std::span<const uint8_t> d) {
  static constexpr ImageFormat kJpeg{"JPEG", image::decode_jpeg}, kPng{"PNG", image::decode_png},
      kTiff{"TIFF", image::decode_tiff}, kWebp{"WebP", image::decode_webp},
      kJp2{"JPEG 2000", image::decode_jpeg2000}, kBmp{"BMP", image::decode_bmp},
      kPnm{"PNM", image::decode_pnm};
  auto starts = [&](std::initializer_list<uint8_t> sig, size_t at = 0) {
    if (d.size() < at + sig.size()) return false;
    return std::equal(sig.begin(), sig.end(), d.begin() + static_cast<ptrdiff_t>(at));
  };
  if (starts({0xff, 0xd8, 0xff})) return &kJpeg;
  if (starts({0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a})) return &kPng;
  if (starts({'I', 'I', 42, 0}) || starts({'M', 'M', 0, 42})) return &kTiff;
  if (starts({'R', 'I', 'F', 'F'}) && starts({'W', 'E', 'B', 'P'}, 8)) return &kWebp;
  if (starts({0, 0, 0, 12, 'j', 'P', ' ', ' ', 0x0d, 0x0a, 0x87, 0x0a}) ||
      starts({0xff, 0x4f, 0xff, 0x51}))
    return &kJp2;
  if (starts({'B', 'M'})) return &kBmp;
  if (d.size() >= 3 && d[0] == 'P' && d[1] >= '1' && d[1] <= '6' &&
      (d[2] == ' ' || d[2] == '\t' || d[2] == '\n' || d[2] == '\r' || d[2] == '#'))
    return &kPnm;
  return nullptr;
}

void image_decoder(KernelContext& ctx) {
  const Tensor& in = ctx.input_tensor(0);
  if (in.dtype() != DataType::kUint8)
    ctx.fail(fmt::format("encoded_stream must be uint8, not {}", ir::data_type_name(in.dtype())));
  if (in.rank() != 1)
    ctx.fail(fmt::format("encoded_stream must be 1-D, not {}", shape_string(in.shape())));
  const std::string pixel_format = ctx.attr_string("pixel_format", "RGB");
  if (pixel_format != "RGB" && pixel_format != "BGR" && pixel_format != "Grayscale")
    ctx.fail(fmt::format("pixel_format '{}' is not one of RGB, BGR, Grayscale", pixel_format));
  const std::span<const uint8_t> data(in.data<uint8_t>(), static_cast<size_t>(in.numel()));
  if (data.empty()) ctx.fail("encoded_stream is empty");
  const ImageFormat* format = image_format_of(data);
  if (!format)
    ctx.fail(fmt::format(
        "encoded_stream is not a JPEG, PNG, TIFF, WebP, JPEG 2000, BMP or PNM image (first "
        "bytes {:02x})",
        fmt::join(data.first(std::min<size_t>(data.size(), 8)), " ")));
  image::RgbImage img;
  try {
    img = format->decode(data);
  } catch (const image::DecodeError& e) {
    ctx.fail(fmt::format("cannot decode the {} stream: {}", format->name, e.what()));
  } catch (const std::bad_alloc&) {
    ctx.fail(fmt::format("out of memory decoding the {} stream", format->name));
  }
  const int64_t pixels = img.height * img.width;
  const uint8_t* rgb = img.pixels.data();
  if (pixel_format == "Grayscale") {
    Tensor out(DataType::kUint8, {img.height, img.width, 1});
    uint8_t* y = out.data<uint8_t>();
    // 0.299, 0.587 and 0.114 scaled by 2^16 (19595 + 38470 + 7471 = 65536).
    for (int64_t p = 0; p < pixels; ++p)
      y[p] = static_cast<uint8_t>(
          (19595u * rgb[3 * p] + 38470u * rgb[3 * p + 1] + 7471u * rgb[3 * p + 2] + 0x8000u) >> 16);
    ctx.set_output(0, out);
    return;
  }
  Tensor out(DataType::kUint8, {img.height, img.width, 3});
  uint8_t* o = out.data<uint8_t>();
  if (pixel_format == "RGB") {
    std::memcpy(o, rgb, static_cast<size_t>(pixels * 3));
  } else {
    for (int64_t p = 0; p < pixels; ++p)
      for (int c = 0; c < 3; ++c) o[3 * p + c] = rgb[3 * p + 2 - c];
  }
  ctx.set_output(0, out);
}

}  // namespace

void register_image_image_decoder(KernelRegistry& registry) {
  registry.add("", "ImageDecoder", 20, image_decoder);
}

}  // namespace onnxscript::eval
