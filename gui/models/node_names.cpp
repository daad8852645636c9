#include "gui/models/node_names.hpp"

#include "collector/model/pkey.hpp"
#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

bool is_guid_name(std::string_view device) {
    return device.starts_with("guid:");
}

void NodeNames::set(const Snapshot& snapshot) {
    names_.clear();
    for (const auto& d : snapshot.devices) update(d);
}

void NodeNames::update(const DeviceSnapshot& device) {
    const auto& desc = device.info.node_desc;
    if (desc && !desc->empty() && is_guid_name(device.info.device)) {
        names_[device.info.device] = qs(*desc);
    } else {
        names_.erase(device.info.device);
    }
}

void NodeNames::remove(const std::string& device) {
    names_.erase(device);
}

QString NodeNames::node(std::string_view device) const {
    const auto it = names_.find(std::string(device));
    return it == names_.end() ? qs(device) : it->second;
}

QString NodeNames::port(std::string_view device, std::optional<uint32_t> port) const {
    if (!port) return node(device);
    const auto it = names_.find(std::string(device));
    // A local device's port reads as the commands write it: mlx5_0:1.
    if (it == names_.end()) return QStringLiteral("%1:%2").arg(qs(device)).arg(*port);
    return QStringLiteral("%1 port %2").arg(it->second).arg(*port);
}

QString NodeNames::subject(const FindingSubject& s) const {
    // A finding about a partition names no device: "pkey 0x0011" alone.
    QStringList parts;
    if (!s.device.empty()) parts << port(s.device, s.port);
    if (s.index) parts << QStringLiteral("index %1").arg(*s.index);
    if (s.pkey) parts << QStringLiteral("pkey ") + qs(format_pkey(*s.pkey));
    if (s.mr) parts << QStringLiteral("mr %1").arg(*s.mr);
    return parts.join(QLatin1Char(' '));
}

QString NodeNames::with_key(std::string_view device) const {
    const QString name = node(device);
    const QString key = qs(device);
    return name == key ? key : QStringLiteral("%1 (%2)").arg(name, key);
}

}  // namespace rdmadiag::gui::models
