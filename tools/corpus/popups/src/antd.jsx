// Ant Design's Select as sites ship it: forty options in a list that scrolls inside its
// dropdown, once with the library's virtual list (only the rows in sight exist) and once
// with every row rendered and clipped by the list's own scroll box.
import { createRoot } from "react-dom/client";
import { App, Button, ConfigProvider, Form, Input, Select, Typography } from "antd";
import { post, COUNTRIES } from "./_post.js";

const OPTIONS = COUNTRIES.map((c) => ({ value: c, label: c }));

function ShippingForm() {
  const finish = (values) => {
    post({ name: values.name ?? "", country: values.country ?? "", origin: values.origin ?? "" });
  };
  return (
    <div style={{ maxWidth: 560, margin: "32px auto" }}>
      <Typography.Title level={2}>Shipping</Typography.Title>
      <Form layout="horizontal" labelCol={{ span: 8 }} onFinish={finish}>
        <Form.Item label="Full name" name="name">
          <Input />
        </Form.Item>
        <Form.Item label="Destination country" name="country">
          <Select placeholder="Choose a country" options={OPTIONS} />
        </Form.Item>
        <Form.Item label="Country of origin" name="origin">
          <Select placeholder="Choose a country" options={OPTIONS} virtual={false} />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 8 }}>
          <Button type="primary" htmlType="submit">
            Save address
          </Button>
        </Form.Item>
      </Form>
    </div>
  );
}

createRoot(document.getElementById("app")).render(
  <ConfigProvider>
    <App>
      <ShippingForm />
    </App>
  </ConfigProvider>,
);
