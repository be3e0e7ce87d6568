/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * RootInfoDetectProvider: generates and parses HcclRootInfo, runs the root side of detection.
 */
#include "root_info_detect_provider.h"
#include "log.h"

namespace hccl {

// Root side: listen, collect RankInfo from all ranks, then broadcast the assembled rank table.
HcclResult RootInfoDetectProvider::Serve(u32 rankSize)
{
    HCCL_INFO("RootInfoDetect: root listen on %s:%u, expect %u ranks", ip_.c_str(), port_, rankSize);
    CHK_RET(listener_.Listen(ip_, port_));
    for (u32 i = 0; i < rankSize; ++i) {
        CHK_RET(AcceptRankInfo());
    }
    CHK_RET(BroadcastRankTable());
    HCCL_INFO("RootInfoDetect: rank table of %u ranks ready", rankSize);
    return HCCL_SUCCESS;
}

// The root info carries ip, port and an identifier; its layout is versioned.
HcclResult RootInfoDetectProvider::Parse(const HcclRootInfo &info, std::string &ip, u32 &port)
{
    const RootInfoHeader *hdr = reinterpret_cast<const RootInfoHeader *>(info.internal);
    CHK_PRT_RET(hdr->version > ROOT_INFO_VERSION, HCCL_ERROR("unsupported root info version %u", hdr->version), HCCL_E_PARA);
    ip = hdr->ip;
    port = hdr->port;
    return HCCL_SUCCESS;
}

}  // namespace hccl
