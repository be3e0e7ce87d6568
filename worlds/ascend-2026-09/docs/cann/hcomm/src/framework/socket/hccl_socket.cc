/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * HcclSocket: Non-blocking TCP socket with connect retry and timeout.
 */
#include "log.h"

namespace hccl {

HcclResult HcclSocket::Init()
{
    HCCL_INFO("HcclSocket init");
    return HCCL_SUCCESS;
}

HcclResult HcclSocket::Run(u32 timeoutMs)
{
    // Non-blocking TCP socket with connect retry and timeout.
    CHK_RET(Prepare());
    return Execute(timeoutMs);
}

}  // namespace hccl
