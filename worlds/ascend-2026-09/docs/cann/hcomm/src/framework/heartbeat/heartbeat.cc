/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * Heartbeat: Peer liveness detection between ranks after link establishment.
 */
#include "log.h"

namespace hccl {

HcclResult Heartbeat::Init()
{
    HCCL_INFO("Heartbeat init");
    return HCCL_SUCCESS;
}

HcclResult Heartbeat::Run(u32 timeoutMs)
{
    // Peer liveness detection between ranks after link establishment.
    CHK_RET(Prepare());
    return Execute(timeoutMs);
}

}  // namespace hccl
