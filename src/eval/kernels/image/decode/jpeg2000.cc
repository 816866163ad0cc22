// JPEG 2000 through OpenJPEG: a JP2 file (signature box) or a raw J2K
// codestream (SOC marker), read from memory through a user stream. Errors
// are collected by the codec's error handler; warnings and information are
// dropped. One component is gray, three or more are R, G, B (an alpha
// component is ignored); a component of another precision is rescaled to
// 8 bits, and signed components are shifted to unsigned first. Subsampled
// components (chroma at half resolution) are not supported.
#include <openjpeg.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "decode.h"

namespace onnxscript::eval::image {
namespace {

struct OpjSource {
  std::span<const uint8_t> data;
  size_t pos = 0;
};

OPJ_SIZE_T opj_read(void* buf, OPJ_SIZE_T size, void* user) {
  auto* s = static_cast<OpjSource*>(user);
  if (s->pos >= s->data.size()) return static_cast<OPJ_SIZE_T>(-1);  // end of stream
  const size_t n = std::min<size_t>(size, s->data.size() - s->pos);
  std::memcpy(buf, s->data.data() + s->pos, n);
  s->pos += n;
  return n;
}

OPJ_OFF_T opj_skip(OPJ_OFF_T n, void* user) {
  auto* s = static_cast<OpjSource*>(user);
  const OPJ_OFF_T room =
      n >= 0 ? static_cast<OPJ_OFF_T>(s->data.size() - s->pos) : -static_cast<OPJ_OFF_T>(s->pos);
  const OPJ_OFF_T step = n >= 0 ? std::min(n, room) : std::max(n, room);
  s->pos = static_cast<size_t>(static_cast<OPJ_OFF_T>(s->pos) + step);
  return step;
}

OPJ_BOOL opj_seek(OPJ_OFF_T to, void* user) {
  auto* s = static_cast<OpjSource*>(user);
  if (to < 0 || static_cast<size_t>(to) > s->data.size()) return OPJ_FALSE;
  s->pos = static_cast<size_t>(to);
  return OPJ_TRUE;
}

void opj_error(const char* msg, void* user) {
  auto* error = static_cast<std::string*>(user);
  if (error->empty()) {
    *error = msg;
    while (!error->empty() && error->back() == '\n') error->pop_back();
  }
}

void opj_ignore(const char*, void*) {}

}  // namespace

RgbImage decode_jpeg2000(std::span<const uint8_t> data) {
  static constexpr uint8_t kJp2[] = {0, 0, 0, 12, 'j', 'P', ' ', ' ', 0x0d, 0x0a, 0x87, 0x0a};
  const bool jp2 = data.size() >= sizeof kJp2 && std::memcmp(data.data(), kJp2, sizeof kJp2) == 0;
  std::string error;
  std::unique_ptr<opj_codec_t, void (*)(opj_codec_t*)> codec(
      opj_create_decompress(jp2 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K), opj_destroy_codec);
  if (!codec) throw DecodeError("OpenJPEG could not create a decoder");
  opj_set_error_handler(codec.get(), opj_error, &error);
  opj_set_warning_handler(codec.get(), opj_ignore, nullptr);
  opj_set_info_handler(codec.get(), opj_ignore, nullptr);
  opj_dparameters_t params;
  opj_set_default_decoder_parameters(&params);
  auto fail = [&](const char* what) { throw DecodeError(error.empty() ? what : error); };
  if (!opj_setup_decoder(codec.get(), &params)) fail("the decoder could not be set up");
  // Truncated codestreams are an error, not a partial image.
  opj_decoder_set_strict_mode(codec.get(), OPJ_TRUE);

  OpjSource source{data, 0};
  std::unique_ptr<opj_stream_t, void (*)(opj_stream_t*)> stream(
      opj_stream_create(OPJ_J2K_STREAM_CHUNK_SIZE, OPJ_TRUE), opj_stream_destroy);
  if (!stream) throw DecodeError("OpenJPEG could not create a stream");
  opj_stream_set_user_data(stream.get(), &source, nullptr);
  opj_stream_set_user_data_length(stream.get(), data.size());
  opj_stream_set_read_function(stream.get(), opj_read);
  opj_stream_set_skip_function(stream.get(), opj_skip);
  opj_stream_set_seek_function(stream.get(), opj_seek);

  opj_image_t* raw = nullptr;
  if (!opj_read_header(stream.get(), codec.get(), &raw)) {
    if (raw) opj_image_destroy(raw);
    fail("the JPEG 2000 header is invalid");
  }
  std::unique_ptr<opj_image_t, void (*)(opj_image_t*)> img(raw, opj_image_destroy);
  if (!opj_decode(codec.get(), stream.get(), img.get()) ||
      !opj_end_decompress(codec.get(), stream.get()))
    fail("the JPEG 2000 data is corrupt or truncated");
  if (img->numcomps == 0 || !img->comps) throw DecodeError("the image has no components");
  const int64_t width = img->comps[0].w, height = img->comps[0].h;
  RgbImage image;
  allocate(image, width, height);
  const unsigned colours = img->numcomps >= 3 ? 3 : 1;
  for (unsigned c = 0; c < colours; ++c) {
    const opj_image_comp_t& comp = img->comps[c];
    if (comp.w != img->comps[0].w || comp.h != img->comps[0].h || !comp.data)
      throw DecodeError("subsampled components are not supported");
    if (comp.prec < 1 || comp.prec > 31)
      throw DecodeError("component precision " + std::to_string(comp.prec) + " is not supported");
    const int64_t shift = comp.sgnd ? int64_t{1} << (comp.prec - 1) : 0;
    const int64_t max = (int64_t{1} << comp.prec) - 1;
    for (int64_t p = 0; p < width * height; ++p) {
      const int64_t v = std::clamp<int64_t>(comp.data[p] + shift, 0, max);
      const uint8_t byte = comp.prec == 8 ? static_cast<uint8_t>(v)
                                          : static_cast<uint8_t>((v * 255 + max / 2) / max);
      if (colours == 3) {
        image.pixels[p * 3 + c] = byte;
      } else {
        image.pixels[p * 3] = image.pixels[p * 3 + 1] = image.pixels[p * 3 + 2] = byte;
      }
    }
  }
  return image;
}

}  // namespace onnxscript::eval::image
