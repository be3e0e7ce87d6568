/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * TransportRoce: RoCE link: QP creation, memory registration and send/recv over verbs.
 */
#include "log.h"

namespace hccl {

HcclResult TransportRoce::Init()
{
    HCCL_INFO("TransportRoce init");
    return HCCL_SUCCESS;
}

HcclResult TransportRoce::Run(u32 timeoutMs)
{
    // RoCE link: QP creation, memory registration and send/recv over verbs.
    CHK_RET(Prepare());
    return Execute(timeoutMs);
}

}  // namespace hccl
