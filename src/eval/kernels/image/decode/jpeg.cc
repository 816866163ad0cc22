// JPEG through libjpeg-turbo, decoded to RGB with the library's defaults
// (islow DCT, fancy upsampling), as image libraries built on it decode.
//
// libjpeg reports errors by calling error_exit, which must not return; it
// longjmps back here. Only C frames lie between setjmp and longjmp, and the
// C++ objects of this frame live outside them, so nothing is skipped.
// Warnings (corrupt or truncated data, which libjpeg would paper over with
// gray) are errors too.
#include <csetjmp>
#include <cstdio>
#include <cstring>

// jpeglib.h needs size_t and FILE declared first.
#include <jpeglib.h>

#include "decode.h"

namespace onnxscript::eval::image {
namespace {

struct JpegErrors {
  jpeg_error_mgr mgr;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void jpeg_fail(j_common_ptr cinfo) {
  auto* errors = reinterpret_cast<JpegErrors*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, errors->message);
  std::longjmp(errors->jump, 1);
}

void jpeg_message(j_common_ptr cinfo, int level) {
  // level -1 is a warning about the data; higher levels are trace output.
  if (level < 0) jpeg_fail(cinfo);
}

}  // namespace

RgbImage decode_jpeg(std::span<const uint8_t> data) {
  RgbImage image;
  jpeg_decompress_struct cinfo;
  JpegErrors errors;
  std::memset(&cinfo, 0, sizeof cinfo);
  cinfo.err = jpeg_std_error(&errors.mgr);
  errors.mgr.error_exit = jpeg_fail;
  errors.mgr.emit_message = jpeg_message;
  errors.message[0] = '\0';
  if (setjmp(errors.jump)) {
    jpeg_destroy_decompress(&cinfo);
    throw DecodeError(errors.message);
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data.data(), static_cast<unsigned long>(data.size()));
  jpeg_read_header(&cinfo, TRUE);
  cinfo.out_color_space = JCS_RGB;
  jpeg_start_decompress(&cinfo);
  const int64_t width = cinfo.output_width, height = cinfo.output_height;
  if (cinfo.output_components != 3 || width <= 0 || height <= 0 || width > kMaxPixels / height) {
    jpeg_destroy_decompress(&cinfo);
    throw DecodeError("the image size " + std::to_string(width) + "x" + std::to_string(height) +
                      " is not supported");
  }
  allocate(image, width, height);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = image.pixels.data() + static_cast<size_t>(cinfo.output_scanline) * width * 3;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return image;
}

}  // namespace onnxscript::eval::image
