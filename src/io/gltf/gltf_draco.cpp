// gltf_draco.cpp — KHR_draco_mesh_compression decoded with Debian's libdraco (gltf_draco.h).
// The project's only C++: everything else calls the two C functions below.
//
// Rules (KHR_draco_mesh_compression, "Decoding"):
//   - The bitstream must be a Draco triangle mesh (a point cloud is not a primitive here).
//   - Each glTF attribute names the Draco attribute by unique id; point i of the decoded mesh is
//     vertex i of every attribute (Draco maps a point to a value index per attribute: read through
//     mapped_index), and the faces give the indices, 3 per triangle.
//   - Attribute values are converted to float from the stored type; a normalized integer stays its
//     integer value (the glTF accessor's `normalized` is the caller's to apply). Draco's own
//     dequantization of quantized attributes (positions, normals, texcoords) is kept: the decoder
//     returns the dequantized floats.
//   - Every bound is checked before a read (value index < the attribute's value count, each value
//     inside the attribute's buffer) and every exception (std::bad_alloc, anything else) is caught:
//     a damaged bitstream gives false and one line, never a crash.
#include "io/gltf/gltf_draco.h"

#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>

namespace {

// One line into error (when there is room), printf-style; always returns false.
bool draco_fail(char *error, size_t error_size, const char *format, ...)
{
    if (error && error_size > 0) {
        va_list args;
        va_start(args, format);
        std::vsnprintf(error, error_size, format, args);
        va_end(args);
    }
    return false;
}

// The value of one stored component (raw bytes of `type`) as float: integers keep their integer value.
bool draco_component_to_float(const uint8_t *bytes, draco::DataType type, float *out)
{
    switch (type) {
    case draco::DT_INT8: { int8_t v; std::memcpy(&v, bytes, sizeof v); *out = (float)v; return true; }
    case draco::DT_UINT8: { uint8_t v; std::memcpy(&v, bytes, sizeof v); *out = (float)v; return true; }
    case draco::DT_INT16: { int16_t v; std::memcpy(&v, bytes, sizeof v); *out = (float)v; return true; }
    case draco::DT_UINT16: { uint16_t v; std::memcpy(&v, bytes, sizeof v); *out = (float)v; return true; }
    case draco::DT_INT32: { int32_t v; std::memcpy(&v, bytes, sizeof v); *out = (float)v; return true; }
    case draco::DT_UINT32: { uint32_t v; std::memcpy(&v, bytes, sizeof v); *out = (float)v; return true; }
    case draco::DT_INT64: { int64_t v; std::memcpy(&v, bytes, sizeof v); *out = (float)v; return true; }
    case draco::DT_UINT64: { uint64_t v; std::memcpy(&v, bytes, sizeof v); *out = (float)v; return true; }
    case draco::DT_FLOAT32: { float v; std::memcpy(&v, bytes, sizeof v); *out = v; return true; }
    case draco::DT_FLOAT64: { double v; std::memcpy(&v, bytes, sizeof v); *out = (float)v; return true; }
    case draco::DT_BOOL: { uint8_t v; std::memcpy(&v, bytes, sizeof v); *out = v ? 1.0f : 0.0f; return true; }
    default: return false;
    }
}

// Reads attribute `unique_id` of `mesh` into `out` (values for every point). False + one line on failure.
bool draco_read_attribute(const draco::Mesh &mesh, int unique_id, GltfDracoAttribute *out, char *error, size_t error_size)
{
    const draco::PointAttribute *attribute = mesh.GetAttributeByUniqueId((uint32_t)unique_id);
    if (!attribute)
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: the bitstream has no attribute with unique id %d",
                          unique_id);
    const int components = attribute->num_components();
    const int64_t component_size = draco::DataTypeLength(attribute->data_type());
    if (components < 1 || components > 16 || component_size <= 0)
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: attribute %d has %d components of an unknown type",
                          unique_id, components);
    const int64_t stride = attribute->byte_stride();
    const int64_t value_count = (int64_t)attribute->size();
    const draco::DataBuffer *buffer = attribute->buffer();
    // Value k lies at byte_offset + k * stride .. + components * component_size: all of them inside the buffer.
    if (!buffer || stride < components * component_size || attribute->byte_offset() < 0 ||
        (value_count > 0 &&
         (int64_t)buffer->data_size() < attribute->byte_offset() + (value_count - 1) * stride + components * component_size))
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: attribute %d's values lie outside its buffer", unique_id);

    const int64_t point_count = mesh.num_points();
    float *values = (float *)std::malloc((size_t)(point_count > 0 ? point_count : 1) * (size_t)components * sizeof(float));
    if (!values)
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: out of memory for attribute %d", unique_id);
    const uint8_t *data = buffer->data();
    for (int64_t point = 0; point < point_count; point++) {
        const int64_t value_index = attribute->mapped_index(draco::PointIndex((uint32_t)point)).value();
        if (value_index < 0 || value_index >= value_count) {
            std::free(values);
            return draco_fail(error, error_size, "KHR_draco_mesh_compression: point %lld of attribute %d maps to value %lld of %lld",
                              (long long)point, unique_id, (long long)value_index, (long long)value_count);
        }
        const uint8_t *value = data + attribute->byte_offset() + value_index * stride;
        for (int c = 0; c < components; c++)
            draco_component_to_float(value + c * component_size, attribute->data_type(), &values[point * components + c]);
    }
    out->unique_id = unique_id;
    out->components = components;
    out->values = values;
    return true;
}

bool draco_decode(const void *data, size_t size, const int *unique_ids, int id_count, GltfDracoMesh *out, char *error,
                  size_t error_size)
{
    if (!data || size == 0)
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: empty bitstream");
    if (id_count < 0 || (id_count > 0 && !unique_ids))
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: no attribute ids");
    draco::DecoderBuffer buffer;
    buffer.Init((const char *)data, size);
    auto geometry_type = draco::Decoder::GetEncodedGeometryType(&buffer);
    if (!geometry_type.ok())
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: not a Draco bitstream (%s)",
                          geometry_type.status().error_msg());
    if (geometry_type.value() != draco::TRIANGULAR_MESH)
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: the bitstream is a point cloud, not a triangle mesh");
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
    if (!decoded.ok())
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: damaged bitstream (%s)", decoded.status().error_msg());
    std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
    if (!mesh)
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: damaged bitstream (no mesh)");

    const int64_t point_count = mesh->num_points();
    const int64_t face_count = mesh->num_faces();
    if (point_count > std::numeric_limits<int>::max() || face_count > std::numeric_limits<int>::max() / 3)
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: %lld points, %lld triangles: too many",
                          (long long)point_count, (long long)face_count);
    out->vertex_count = (int)point_count;
    out->index_count = (int)(face_count * 3);
    out->indices = (uint32_t *)std::malloc((size_t)(face_count > 0 ? face_count * 3 : 1) * sizeof(uint32_t));
    out->attributes = (GltfDracoAttribute *)std::calloc((size_t)(id_count > 0 ? id_count : 1), sizeof(GltfDracoAttribute));
    if (!out->indices || !out->attributes)
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: out of memory for %lld triangles", (long long)face_count);
    for (int64_t f = 0; f < face_count; f++) {
        const draco::Mesh::Face &face = mesh->face(draco::FaceIndex((uint32_t)f));
        for (int corner = 0; corner < 3; corner++) {
            const int64_t point = face[corner].value();
            if (point < 0 || point >= point_count)
                return draco_fail(error, error_size, "KHR_draco_mesh_compression: triangle %lld names point %lld of %lld",
                                  (long long)f, (long long)point, (long long)point_count);
            out->indices[f * 3 + corner] = (uint32_t)point;
        }
    }
    for (int i = 0; i < id_count; i++) {
        if (!draco_read_attribute(*mesh, unique_ids[i], &out->attributes[i], error, error_size))
            return false;
        out->attribute_count = i + 1;   // so that gltf_draco_free frees exactly what was filled
    }
    return true;
}

} // namespace

extern "C" bool gltf_draco_decode(const void *data, size_t size, const int *unique_ids, int id_count, GltfDracoMesh *out,
                                  char *error, size_t error_size)
{
    if (!out)
        return draco_fail(error, error_size, "KHR_draco_mesh_compression: no output");
    std::memset(out, 0, sizeof *out);
    bool ok = false;
    try {
        ok = draco_decode(data, size, unique_ids, id_count, out, error, error_size);
    } catch (const std::bad_alloc &) {
        ok = draco_fail(error, error_size, "KHR_draco_mesh_compression: out of memory while decoding");
    } catch (const std::exception &e) {
        ok = draco_fail(error, error_size, "KHR_draco_mesh_compression: decoder failed (%s)", e.what());
    } catch (...) {
        ok = draco_fail(error, error_size, "KHR_draco_mesh_compression: decoder failed");
    }
    if (!ok)
        gltf_draco_free(out);
    return ok;
}

extern "C" void gltf_draco_free(GltfDracoMesh *mesh)
{
    if (!mesh)
        return;
    if (mesh->attributes)
        for (int i = 0; i < mesh->attribute_count; i++)
            std::free(mesh->attributes[i].values);
    std::free(mesh->attributes);
    std::free(mesh->indices);
    std::memset(mesh, 0, sizeof *mesh);
}
