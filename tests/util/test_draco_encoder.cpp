// test_draco_encoder.cpp — the tests' Draco encoder (test_draco_encoder.h), built from libdraco's encoder.
#include "test_draco_encoder.h"

#include <draco/compression/encode.h>
#include <draco/mesh/mesh.h>

#include <cstdlib>
#include <cstring>
#include <memory>

namespace {

// Adds one attribute with one value per point (identity mapping) and returns its unique id.
int add_attribute(draco::PointCloud &cloud, draco::GeometryAttribute::Type type, int components, draco::DataType data_type,
                  const void *values, int count)
{
    draco::GeometryAttribute attribute;
    const int64_t stride = (int64_t)components * draco::DataTypeLength(data_type);
    attribute.Init(type, nullptr, (uint8_t)components, data_type, false, stride, 0);
    const int index = cloud.AddAttribute(attribute, true, (uint32_t)count);
    draco::PointAttribute *added = cloud.attribute(index);
    for (int v = 0; v < count; v++)
        added->SetAttributeValue(draco::AttributeValueIndex((uint32_t)v), (const uint8_t *)values + v * stride);
    return (int)added->unique_id();
}

unsigned char *encode(const TestDracoInput *input, TestDracoIds *ids, size_t *size)
{
    std::unique_ptr<draco::PointCloud> geometry;
    draco::Mesh *mesh = nullptr;
    if (input->point_cloud) {
        geometry.reset(new draco::PointCloud());
    } else {
        mesh = new draco::Mesh();
        geometry.reset(mesh);
        for (int t = 0; t + 2 < input->index_count; t += 3) {
            draco::Mesh::Face face;
            for (int c = 0; c < 3; c++)
                face[c] = draco::PointIndex(input->indices[t + c]);
            mesh->AddFace(face);
        }
    }
    geometry->set_num_points((uint32_t)input->vertex_count);
    ids->position = add_attribute(*geometry, draco::GeometryAttribute::POSITION, 3, draco::DT_FLOAT32, input->positions,
                                  input->vertex_count);
    ids->id = add_attribute(*geometry, draco::GeometryAttribute::GENERIC, 1, draco::DT_UINT32, input->ids, input->vertex_count);
    ids->joints = add_attribute(*geometry, draco::GeometryAttribute::GENERIC, 4, draco::DT_UINT16, input->joints,
                                input->vertex_count);
    ids->weights = add_attribute(*geometry, draco::GeometryAttribute::GENERIC, 4, draco::DT_FLOAT32, input->weights,
                                 input->vertex_count);

    draco::Encoder encoder;
    encoder.SetSpeedOptions(5, 5);
    if (input->position_bits > 0)
        encoder.SetAttributeQuantization(draco::GeometryAttribute::POSITION, input->position_bits);
    draco::EncoderBuffer buffer;
    draco::Status status = mesh ? encoder.EncodeMeshToBuffer(*mesh, &buffer) : encoder.EncodePointCloudToBuffer(*geometry, &buffer);
    if (!status.ok())
        return nullptr;
    unsigned char *bytes = (unsigned char *)std::malloc(buffer.size());
    if (!bytes)
        return nullptr;
    std::memcpy(bytes, buffer.data(), buffer.size());
    *size = buffer.size();
    return bytes;
}

} // namespace

extern "C" unsigned char *test_draco_encode(const TestDracoInput *input, TestDracoIds *ids, size_t *size)
{
    try {
        return encode(input, ids, size);
    } catch (...) {
        return nullptr;
    }
}
