/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * MemRegister: Registers user buffers for zero-copy transports.
 */
#include "log.h"

namespace hccl {

HcclResult MemRegister::Init()
{
    HCCL_INFO("MemRegister init");
    return HCCL_SUCCESS;
}

HcclResult MemRegister::Run(u32 timeoutMs)
{
    // Registers user buffers for zero-copy transports.
    CHK_RET(Prepare());
    return Execute(timeoutMs);
}

}  // namespace hccl
