// TIFF through libtiff, read from memory with client procedures. The first
// directory (page) is decoded with TIFFReadRGBAImageOriented, which handles
// every photometric interpretation, bit depth and compression the library
// knows, top row first. Errors and warnings go to per-file handlers
// (TIFFOpenOptions) instead of stderr; the first error becomes the message.
#include <tiffio.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>

#include "decode.h"

namespace onnxscript::eval::image {
namespace {

struct TiffSource {
  std::span<const uint8_t> data;
  toff_t pos = 0;
  std::string error;
};

tmsize_t tiff_read(thandle_t h, void* buf, tmsize_t size) {
  auto* s = static_cast<TiffSource*>(h);
  if (size < 0 || s->pos >= s->data.size()) return 0;
  const size_t n = std::min<size_t>(static_cast<size_t>(size), s->data.size() - s->pos);
  std::memcpy(buf, s->data.data() + s->pos, n);
  s->pos += n;
  return static_cast<tmsize_t>(n);
}

tmsize_t tiff_write(thandle_t, void*, tmsize_t) { return 0; }

toff_t tiff_seek(thandle_t h, toff_t off, int whence) {
  auto* s = static_cast<TiffSource*>(h);
  toff_t base = 0;
  if (whence == SEEK_CUR) base = s->pos;
  if (whence == SEEK_END) base = s->data.size();
  // Offsets past the end are allowed (reads there return nothing).
  s->pos = base + off;
  return s->pos;
}

int tiff_close(thandle_t) { return 0; }
toff_t tiff_size(thandle_t h) { return static_cast<TiffSource*>(h)->data.size(); }
int tiff_map(thandle_t, void**, toff_t*) { return 0; }
void tiff_unmap(thandle_t, void*, toff_t) {}

int tiff_error(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
  auto* s = static_cast<TiffSource*>(user);
  if (s->error.empty()) {
    char text[512];
    std::vsnprintf(text, sizeof text, fmt, ap);
    s->error = module ? std::string(module) + ": " + text : std::string(text);
  }
  return 1;  // handled: do not call the global handler (stderr)
}

int tiff_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

}  // namespace

RgbImage decode_tiff(std::span<const uint8_t> data) {
  TiffSource source{data, 0, {}};
  std::unique_ptr<TIFFOpenOptions, void (*)(TIFFOpenOptions*)> options(TIFFOpenOptionsAlloc(),
                                                                       TIFFOpenOptionsFree);
  TIFFOpenOptionsSetErrorHandlerExtR(options.get(), tiff_error, &source);
  TIFFOpenOptionsSetWarningHandlerExtR(options.get(), tiff_warning, &source);
  // A corrupt header must not make libtiff allocate without bound.
  TIFFOpenOptionsSetMaxSingleMemAlloc(options.get(), tmsize_t{1} << 30);
  std::unique_ptr<TIFF, void (*)(TIFF*)> tif(
      TIFFClientOpenExt("stream", "rm", &source, tiff_read, tiff_write, tiff_seek, tiff_close,
                        tiff_size, tiff_map, tiff_unmap, options.get()),
      TIFFClose);
  auto fail = [&](const char* what) {
    throw DecodeError(source.error.empty() ? std::string(what) : source.error);
  };
  if (!tif) fail("not a readable TIFF stream");
  uint32_t width = 0, height = 0;
  if (!TIFFGetField(tif.get(), TIFFTAG_IMAGEWIDTH, &width) ||
      !TIFFGetField(tif.get(), TIFFTAG_IMAGELENGTH, &height))
    fail("the TIFF has no image size");
  RgbImage image;
  allocate(image, width, height);
  char reason[1024] = "";
  if (!TIFFRGBAImageOK(tif.get(), reason)) throw DecodeError(reason);
  std::vector<uint32_t> raster(static_cast<size_t>(image.width * image.height));
  if (!TIFFReadRGBAImageOriented(tif.get(), width, height, raster.data(), ORIENTATION_TOPLEFT, 1))
    fail("the TIFF image data could not be read");
  if (!source.error.empty()) fail("");
  for (size_t p = 0; p < raster.size(); ++p) {
    image.pixels[p * 3] = static_cast<uint8_t>(TIFFGetR(raster[p]));
    image.pixels[p * 3 + 1] = static_cast<uint8_t>(TIFFGetG(raster[p]));
    image.pixels[p * 3 + 2] = static_cast<uint8_t>(TIFFGetB(raster[p]));
  }
  return image;
}

}  // namespace onnxscript::eval::image
